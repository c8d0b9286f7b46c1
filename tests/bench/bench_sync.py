# Sync of 1,000 finished games from the simulated board over its virtual
# serial line into a fresh SQLite database (budget: 5 s). Prints JSON.
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))

from simboard import Board, fill_log

from cribboard import db, sync
from cribboard.linkclient import BoardLink

GAMES = 1000


def main():
    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash"
        fill_log(flash, GAMES)
        board = Board(flash)
        try:
            conn = db.connect(str(Path(tmp) / "results.sqlite3"))
            link = BoardLink(board.port)
            t0 = time.perf_counter()
            new, _, _ = sync.sync(link, conn)
            seconds = time.perf_counter() - t0
            link.close()
        finally:
            board.stop()
        log_bytes = (flash / "games.log").stat().st_size
    print(json.dumps({"games": new, "seconds": round(seconds, 2), "log_bytes": log_bytes}))


main()
