# `cribboard flash` on the simulated board (the unix port): a flash from an
# empty compiled-modules cache, then a re-flash of the unchanged board from
# the cache (issue 33's goals: at most a third of the cold flash, and at
# most 1.5 s). Each as a user runs it, a new process. Prints JSON.
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

from cribboard.link.client import BoardLink


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
    print(
        json.dumps(
            {
                "cold_s": cold,
                "written_cold": len(first["written"]),
                "warm_s": warm,
                "written_warm": len(again["written"]),
                "ratio": round(warm / cold, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
