# The club on WiFi (issue 35), in two parts. 1. A board with the sender
# loaded, on MicroPython's unix port (heapclub.py), against a real
# `cribboard serve`: its live heap, the bytes its idle passes allocate, and
# its longest loop pass with a request under way. 2. A club evening
# (tests/host/clubload.py): 20 simulated Pico Ws send a game each at the
# same moment, then live states for a minute, into PostgreSQL through one
# `cribboard serve`: acknowledgement times as a board sees them, and the
# server's CPU time per request. Prints JSON.
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # tests/deadline.py

import clubload
import clubserver
from pgserver import Cluster

ROOT = Path(__file__).resolve().parents[2]

BOARD = "e6614104032b2c29"  # tests/fakes/machine.py's unique_id
HEAPCLUB = [str(ROOT / ".venv" / "bin" / "micropython"), "-X", "heapsize=192wK", "tests/bench/heapclub.py"]
HEAPCLUB_PATH = "build/mpy:build/mpy/lib:tests/fakes:host/cribboard/mp"


def board_figures(tmp):
    subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True, capture_output=True)
    db = str(Path(tmp) / "club.sqlite3")
    clubserver.pair(db, BOARD)
    proc, url = clubserver.start(db)
    try:
        env = dict(os.environ, MICROPYPATH=HEAPCLUB_PATH)
        done = subprocess.run(
            HEAPCLUB + [url, clubserver.KEY], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
    finally:
        clubserver.stop(proc)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        board = board_figures(tmp)
        cluster = Cluster()
        try:
            load = clubload.run(cluster.new_database(), tmp, boards=20, live_s=60.0)
        finally:
            cluster.stop()
    print(
        json.dumps(
            {
                "board": board,
                "load": load,
                "board_command": "make mpy; MICROPYPATH=%s %s http://127.0.0.1:PORT/ KEY"
                % (HEAPCLUB_PATH, " ".join(["micropython"] + HEAPCLUB[1:])),
            }
        )
    )


if __name__ == "__main__":
    main()
