# The package's weight and the deploy's speed: the wheel's size, what a base
# install and one with the plot extra put in a fresh venv, and a full and an
# up-to-date `cribboard flash` to the simulated board. Prints JSON.
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # tests/deadline.py

from simboard import Board

from cribboard.deploy import flash

ROOT = Path(__file__).resolve().parents[2]


def size(folder):
    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())


def installed(tmp, name, *what):
    venv = Path(tmp) / name
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    empty = size(venv)
    subprocess.run(
        [venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *what], check=True
    )
    return size(venv) - empty


def main():
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--outdir", tmp, ROOT], check=True, capture_output=True
        )
        (wheel,) = Path(tmp).glob("*.whl")
        out = {
            "wheel_bytes": wheel.stat().st_size,
            "base_install_bytes": installed(tmp, "base", str(wheel)),
            "plot_install_bytes": installed(tmp, "plot", "%s[plot]" % wheel),
        }
        board = Board(Path(tmp) / "flash")
        try:
            t0 = time.perf_counter()
            full = flash.flash(board.port)
            out["flash_all_s"] = time.perf_counter() - t0
            out["flash_all_files"] = len(full.written)
            board.sim.wait_frame(board.sim.frames)
            t0 = time.perf_counter()
            flash.flash(board.port)
            out["flash_unchanged_s"] = time.perf_counter() - t0
        finally:
            board.stop()
    print(json.dumps(out))


main()
