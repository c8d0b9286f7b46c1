# `cribboard flash --drive`: a CircuitPython deployment written to a CIRCUITPY
# drive (a folder with a boot_out.txt, as the computer sees the board), then
# booted from that drive alone on the CircuitPython stand-ins.
import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from clirun import cli
from deadline import COMMAND_S

from cribboard.deploy import drive

ROOT = Path(__file__).resolve().parents[2]
STAND_INS = ROOT / "host" / "cribboard" / "cp"
BOOT_OUT = "Adafruit CircuitPython %s on 2025-10-01; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"


def circuitpy(tmp_path, version="9.2.1"):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text(BOOT_OUT % version)
    (d / "notes.txt").write_text("the maker's own file")
    return d


def test_a_deploy_writes_the_board_and_then_only_what_changed(tmp_path):
    d = circuitpy(tmp_path)
    done = cli("flash", "--drive", str(d), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    for name in (
        "code.py",
        "boot.py",
        "lib/cribcp/hardware.py",
        "lib/cribapp/assemble.py",
        "lib/cribcore/game.py",
        "lib/neopixel.py",
        "board.json",
        "layout.json",
    ):
        assert name in result["written"], name
    assert result["written"][-1] == "code.py"  # last: CircuitPython restarts when it changes
    assert not (d / "main.py").exists()
    assert not (d / "lib" / "cribrules" / "show.py").exists()
    assert b"class NeoPixel(adafruit_pixelbuf.PixelBuf)" in (d / "lib" / "neopixel.py").read_bytes()  # Adafruit's
    manifest = json.loads((d / "deploy.json").read_text())
    assert manifest["state"] == "complete"
    assert manifest["runtime"] == "circuitpython"
    again = json.loads(cli("flash", "--drive", str(d), "--json").stdout)
    assert again["written"] == []
    assert again["removed"] == []
    (d / "lib" / "cribapp" / "old.py").write_text("# a module of an older firmware")
    (d / "lib" / "cribapp" / "render.py").write_text("# changed by hand")
    (d / "lib" / "other").mkdir()
    (d / "lib" / "other" / "mine.py").write_text("# the maker's own library")
    third = json.loads(cli("flash", "--drive", str(d), "--json").stdout)
    assert third["written"] == ["lib/cribapp/render.py"]
    assert third["removed"] == ["lib/cribapp/old.py"]
    assert (d / "notes.txt").read_text() == "the maker's own file"
    assert (d / "lib" / "other" / "mine.py").exists()
    assert not list(d.rglob("*.new"))


def test_an_unsupported_circuitpython_or_a_folder_that_is_no_drive_is_refused(tmp_path):
    old = circuitpy(tmp_path, "8.2.10")
    done = cli("flash", "--drive", str(old))
    assert done.returncode == 1
    assert "CircuitPython 8.2.10; Cribboard runs on CircuitPython 9.x and 10.x" in done.stderr
    assert sorted(p.name for p in old.iterdir()) == ["boot_out.txt", "notes.txt"]  # nothing written
    done = cli("flash", "--drive", str(tmp_path))
    assert done.returncode == 2
    assert "is not a CircuitPython drive (it has no boot_out.txt)" in done.stderr


def test_a_drive_the_board_holds_says_how_to_give_it_back(tmp_path, monkeypatch):
    d = circuitpy(tmp_path)

    def read_only(path, data):  # what the computer gets once boot.py gave the drive to the board
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(drive, "_write", read_only)
    with pytest.raises(drive.DriveError) as e:
        drive.deploy(d)
    assert "holding UNDO" in str(e.value)
    assert e.value.exit_code == 1


def test_the_drive_is_found_by_its_boot_out_txt(tmp_path, monkeypatch):
    d = circuitpy(tmp_path)
    monkeypatch.setattr(drive, "_mounts", lambda: [tmp_path / "usb-stick", d, Path("/nonexistent")])
    assert drive.find() == d
    monkeypatch.setattr(drive, "_mounts", lambda: [])
    with pytest.raises(drive.DriveError) as e:
        drive.find()
    assert "no CIRCUITPY drive found" in str(e.value)


def on_the_board(d, body):
    """Run body (Python) as the board would, from the drive's own lib/ and
    CircuitPython's built-in modules (the stand-ins, and adafruit_pixelbuf
    from its package), nothing from the checkout; its stdout."""
    pixelbuf = Path(__import__("adafruit_pixelbuf").__file__).parent
    script = textwrap.dedent("""
        import sys
        sys.path[:] = [p for p in sys.path if "firmware" not in p and "/tests" not in p]
        import simcp, usb_cdc
    """) + textwrap.dedent(body)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(STAND_INS), str(d / "lib"), str(d), str(pixelbuf)]))
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=d, env=env, capture_output=True, text=True, timeout=COMMAND_S
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


PLAY = """
    exec(open("boot.py").read(), {"__name__": "__boot__"})
    scope = {"__name__": "__code__"}
    exec(open("code.py").read(), scope)
    app = scope["build"]()
    import cribapp, neopixel
    assert cribapp.__file__.startswith(%r) and neopixel.__file__.startswith(%r)
    for level in (True, False, True):  # P1 on GP2: up a moment after boot, pressed, let go
        simcp.levels["GP2"] = level
        for _ in range(10):
            simcp.now_ms[0] += 10
            app.step()
    for _ in range(210):  # two idle seconds count the point
        simcp.now_ms[0] += 10
        app.step()
    print(app.match.game.score(0), len(simcp.frames[-1]), simcp.remounts)
"""


def test_the_deployed_drive_boots_and_plays_on_its_own_files(tmp_path):
    d = circuitpy(tmp_path)
    assert cli("flash", "--drive", str(d)).returncode == 0
    out = on_the_board(d, PLAY % (str(d), str(d)))
    assert out.split() == ["1", str(3 * 258), "[('/',", "False)]"]


def test_a_deploy_cut_off_shows_the_deploy_error_on_the_board_and_the_next_flash_mends_it(tmp_path):
    d = circuitpy(tmp_path)
    assert cli("flash", "--drive", str(d)).returncode == 0
    # What a cut leaves: a module half written, the deploy marked as started.
    (d / "lib" / "cribapp" / "app.py").write_text("class App(\n")
    (d / "deploy.json").write_text('{"state": "incomplete"}')
    out = on_the_board(
        d,
        """
        import time
        blinks = []
        def sleep(s):
            blinks.append(bytes(simcp.frames[-1]))
            if len(blinks) == 2:
                raise KeyboardInterrupt  # Ctrl-C on the console
        time.sleep = sleep
        exec(open("boot.py").read(), {"__name__": "__boot__"})
        try:
            # compiled first: exec() of a string that raises KeyboardInterrupt
            # makes CPython exit as if interrupted, even once it is caught
            exec(compile(open("code.py").read(), "code.py", "exec"), {"__name__": "__main__"})
        except KeyboardInterrupt:
            pass
        red = [i for i in range(len(blinks[0]) // 3) if blinks[0][3 * i + 1]]
        print(simcp.wire[0], len(blinks[0]) // 3, " ".join(map(str, red)), any(blinks[1]))
    """,
    )
    from cribcore.layout import Layout

    points = Layout(json.loads((d / "layout.json").read_text())).points[0]
    assert out.split() == ["GP0", "258", *map(str, sorted(points[:6])), "False"]
    done = cli("flash", "--drive", str(d), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["written"] == ["lib/cribapp/app.py"]
    assert result["previous_deploy"] == "incomplete"
    assert on_the_board(d, PLAY % (str(d), str(d))).split()[0] == "1"
