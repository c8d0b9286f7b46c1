# Sync of 1,000 finished games from the simulated board over its virtual
# serial line into a fresh database: SQLite, and a PostgreSQL server on this
# machine (a throw-away cluster, as the tests start; budget: 5 s each).
# Every record is replayed through the core before it is stored. Prints JSON.
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # tests/deadline.py

from pgserver import Cluster
from simboard import Board, fill_log

from cribboard import store
from cribboard.link import sync
from cribboard.link.client import BoardLink

GAMES = 1000


def timed_sync(board, url):
    conn = store.connect(url)
    link = BoardLink(board.port)
    t0 = time.perf_counter()
    new, rejected, _, _ = sync.sync(link, conn)
    seconds = time.perf_counter() - t0
    link.close()
    conn.close()
    assert new == GAMES
    assert rejected == 0
    return round(seconds, 2)


def checked_s(url):
    """How long a command that writes spends checking the file is sound first (store.check_sound), on the
    database the sync just made: its cost at every write command, cache warm as a command finds it."""
    conn = store.connect(url)
    try:
        store.check_sound(conn)
        t0 = time.perf_counter()
        store.check_sound(conn)
        return round((time.perf_counter() - t0) * 1000, 1)
    finally:
        conn.close()


def main():
    cluster = Cluster()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            flash = Path(tmp) / "flash"
            fill_log(flash, GAMES)
            board = Board(flash)
            try:
                sqlite_url = str(Path(tmp) / "results.sqlite3")
                sqlite_s = timed_sync(board, sqlite_url)
                check_ms = checked_s(sqlite_url)
                db_bytes = Path(sqlite_url).stat().st_size
                postgresql_s = timed_sync(board, cluster.new_database())
            finally:
                board.stop()
            log_bytes = (flash / "games.log").stat().st_size
    finally:
        cluster.stop()
    print(
        json.dumps(
            {
                "games": GAMES,
                "seconds": sqlite_s,
                "postgresql_seconds": postgresql_s,
                "log_bytes": log_bytes,
                "check_ms": check_ms,
                "db_bytes": db_bytes,
            }
        )
    )


main()
