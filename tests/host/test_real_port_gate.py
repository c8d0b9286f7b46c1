# The real RP2040 port's tests need an image this repository does not keep
# (CRIBBOARD_PICO_UF2): without it they are skipped in one line that says
# what to set; with a file that is no UF2, pytest stops and says so; the
# bench says it measured nothing rather than print old figures.
import json
import os
import subprocess
import sys
from pathlib import Path

from deadline import COMMAND_S

ROOT = Path(__file__).resolve().parents[2]
REAL_PORT = ["tests/host/test_pico.py", "tests/host/test_pico_faults.py", "tests/host/test_pico_games.py"]


def pytest_on(files, image, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "CRIBBOARD_PICO_UF2"}
    if image is not None:
        env["CRIBBOARD_PICO_UF2"] = str(image)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--sweep",
            "--basetemp",
            str(tmp_path / "base"),
            *files,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_the_image_every_real_port_test_is_skipped_in_one_line(tmp_path):
    done = pytest_on(REAL_PORT, None, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) == 1, done.stdout  # the sweep among them, though --sweep asks for it
    assert "CRIBBOARD_PICO_UF2" in skipped[0]
    assert "v1.28.0 RPI_PICO" in skipped[0]
    assert " passed" not in done.stdout
    assert "skipped" in done.stdout.splitlines()[-1]


def test_a_file_that_is_no_uf2_stops_the_run_with_one_line(tmp_path):
    fake = tmp_path / "RPI_PICO.uf2"
    fake.write_bytes(b"<html>not found</html>")  # what a failed download leaves
    done = pytest_on(REAL_PORT[:1], fake, tmp_path)
    assert done.returncode == 4, done.stdout + done.stderr  # pytest's usage error: nothing ran
    assert "%s is not a UF2 image" % fake in done.stderr
    assert "Traceback" not in done.stderr


def test_the_bench_says_it_measured_nothing_without_the_image():
    env = {k: v for k, v in os.environ.items() if k != "CRIBBOARD_PICO_UF2"}
    done = subprocess.run(
        [sys.executable, "tests/bench/bench_pico.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=COMMAND_S,
    )
    said = json.loads(done.stdout)
    assert done.returncode == 0
    assert said["measured"] is False
    assert "CRIBBOARD_PICO_UF2" in said["why"]
