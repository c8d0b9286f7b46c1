# A club's season kept safe (issue 71): a database a season old (10 paired
# boards' 3,000 games, 12 club nights of 16 players over 3 rounds, results
# entered), on each engine: `cribboard backup`'s copy made while nothing
# else runs (seconds, bytes), read back, and restored into an empty
# database (seconds); and the same season in the schema of the release
# before (19) migrated to this one's when it is first opened (seconds).
# PostgreSQL is the tests' throw-away server (fsync off: its figures are
# the work, not the disk's). Prints JSON.
#   python tests/bench/bench_season.py [--quick]   (--quick: 300 games, 2 nights)
import json
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # tests/deadline.py

from nightgames import record
from pgserver import Cluster

from cribboard import store
from cribboard.night import director
from cribboard.store import backup

BOARDS = ["b0ard%02d" % k for k in range(10)]
LOG = "5ea5015ea5015ea5"
SYNCED = "2026-09-01T20:00:00+00:00"


def season(url, games, nights):
    """The season's database at url (this release's schema)."""
    db = store.connect(url)
    try:
        for b in BOARDS:
            store.club.pair(db, b, b"k" * 32, SYNCED, (LOG, 0))
        names = ["Player %02d" % k for k in range(1, 41)]
        per_board = games // len(BOARDS)
        for b in BOARDS:
            for start in range(1, per_board + 1, 100):
                batch = [
                    (s, record(s, [names[s % 40], names[(s * 7 + 1) % 40]], s % 2, 60 + s % 60))
                    for s in range(start, min(per_board, start + 99) + 1)
                ]
                store.games.add(db, b, "t", batch, SYNCED, {}, log=LOG)
        for k in range(nights):
            players = [names[(k * 3 + j) % 40] for j in range(16)]
            night = director.begin(db, players, 3, [(str(t), None) for t in range(1, 9)], seed=k)
            for r, drawn in enumerate(night.drawn, 1):
                for g in drawn:
                    if g.second is not None:
                        night = director.enter(db, night, r, (g.first, g.second), (121, 80 + (g.first * r) % 40))
            director.end(db, night)
    finally:
        db.close()


def release_before(url):
    """The database as the release before kept it (schema 19): no pairing floor yet."""
    db = store.connect(url)
    try:
        with db.transaction():
            db.execute("ALTER TABLE club_boards DROP COLUMN floor_log")
            db.execute("ALTER TABLE club_boards DROP COLUMN floor_seq")
            db.execute("UPDATE schema_version SET version = 19")
    finally:
        db.close()


def timed(fn):
    began = time.perf_counter()
    value = fn()
    return round(time.perf_counter() - began, 3), value


def measure(engine, url, fresh, folder, games, nights):
    built_s, _ = timed(lambda: season(url, games, nights))
    made_s, made = timed(lambda: backup.make(url, folder, datetime.now(timezone.utc)))
    read_s, _ = timed(lambda: backup.read_back(made.path))
    restored_s, _ = timed(lambda: backup.restore(made.path, fresh))
    release_before(url)
    migrated_s, _ = timed(lambda: store.connect(url).close())
    return {
        "engine": engine,
        "counts": made.counts,
        "season_built_s": built_s,
        "backup_s": made_s,
        "backup_bytes": made.size,
        "read_back_s": read_s,
        "restore_s": restored_s,
        "migrate_19_to_now_s": migrated_s,
    }


def main():
    quick = "--quick" in sys.argv
    games, nights = (300, 2) if quick else (3000, 12)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "backups"
        folder.mkdir()
        out.append(
            measure("sqlite", str(Path(tmp) / "club.sqlite3"), str(Path(tmp) / "new.sqlite3"), folder, games, nights)
        )
        with Cluster() as pg:
            out.append(measure("postgresql", pg.new_database(), pg.new_database(), folder, games, nights))
    print(json.dumps({"season": out}))


if __name__ == "__main__":
    main()
