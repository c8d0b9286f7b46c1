# A club's season kept safe (issue 71): `cribboard backup` and `restore` on
# both engines (a season's nights and games back as they were, a backup
# made while another process writes being one moment of the database), the
# server's own backups on their schedule and after a night ends, and every
# bad input refused in one line with nothing changed.
import json
import os
import stat
import threading

import clubserver
from clirun import cli
from damage import read_only
from deadline import WAIT_S
from nightgames import record
from test_night import as_json, ok

from cribboard import store
from cribboard.club.backups import Schedule
from cribboard.store import backup

BOARDS = ["b0ard-one", "b0ard-two"]
HOUR = 3600.0


def play(db_url, board, seq, names, winner, loser_score):
    """A game a board reports, stored as a sync (or the club's server) stores it."""
    db = store.connect(db_url)
    store.games.add(db, board, "t", [(seq, record(seq, names, winner, loser_score))], "2026-11-27T20:00:00+00:00", {})
    db.close()


def a_night(db_url, seed, names, seq):
    """A club night of one round at the club's two boards (paired first), its games reported, ended; seq: each
    board's last record number, moved on."""
    if not any(seq.values()):
        for board in BOARDS:
            clubserver.pair(db_url, board)
    db = ["--db", db_url]
    tables = [x for n, b in enumerate(BOARDS, 1) for x in ("--table", "%d=%s" % (n, b))]
    as_json("night", "new", *names, "--rounds", "1", *tables, "--seed", str(seed), *db)
    for k, g in enumerate(as_json("night", "round", "1", *db)):
        seq[g["board"]] += 1
        play(db_url, g["board"], seq[g["board"]], [g["first"], g["second"]], k % 2, 60 + 20 * k + seed)
    as_json("night", "end", *db)


def games_of(db_url):
    db = store.connect(db_url)
    try:
        return [(r["board"], r["seq"], r["record"]) for r in db.all("SELECT board, seq, record FROM games ORDER BY id")]
    finally:
        db.close()


def test_the_schedule_backs_up_when_the_newest_is_old_and_after_a_night_ends_and_waits_after_a_failure():
    s = Schedule(every_s=24 * HOUR, newest=None, milestones=3, retry_s=600)
    assert s.due(0, 3) == "the first in this folder"
    s.made(0, 3)
    assert s.due(23 * HOUR, 3) is None
    assert s.due(23 * HOUR, 4) == "after a club night or tournament began or ended"
    s.made(23 * HOUR, 4)
    assert s.due(46 * HOUR, 4) is None, "the day counts from the newest backup, whatever made it"
    assert s.due(47 * HOUR, 4) == "on schedule"
    s.failed(47 * HOUR)
    assert s.due(47 * HOUR + 599, 5) is None, "a failure is tried again after retry_s, not at every check"
    assert s.due(47 * HOUR + 600, 5) == "after a club night or tournament began or ended"
    assert Schedule(every_s=HOUR, newest=1000.0, milestones=0).due(1000 + HOUR, 0) == "on schedule"


def test_a_backup_restores_the_season_as_it_was(db_url, another_db_url, tmp_path):
    seq = dict.fromkeys(BOARDS, 0)
    a_night(db_url, 1, ["Ann", "Bob", "Cy", "Di"], seq)
    a_night(db_url, 2, ["Ann", "Bob", "Ed", "Flo"], seq)
    folder = tmp_path / "backups"
    folder.mkdir()
    made = as_json("backup", "--db", db_url, "--to", str(folder))
    assert made["counts"] == {"games": 4, "players": 6, "nights": 2, "tournaments": 0, "club_boards": 2}
    assert made["schema"] == store.migrations.SCHEMA_VERSION
    path = folder / os.path.basename(made["path"])
    assert [p.name for p in folder.iterdir()] == [path.name], "the copy's .part is gone, nothing else made"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600, "a backup holds the boards' keys: its owner's alone"
    assert backup.read_back(path).counts == made["counts"]

    done = ok("restore", str(path), "--db", another_db_url, "--json")
    assert json.loads(done.stdout)["counts"] == made["counts"]
    assert games_of(another_db_url) == games_of(db_url)
    assert as_json("night", "season", "--db", another_db_url) == as_json("night", "season", "--db", db_url)
    assert as_json("night", "history", "--db", another_db_url) == as_json("night", "history", "--db", db_url)


def test_a_backup_made_while_another_process_writes_is_one_moment_of_the_database(db_url, another_db_url, tmp_path):
    """A writer adds two players a transaction all along; each backup holds an even number of them, numbered
    without a gap: whole transactions, none half."""
    store.connect(db_url).close()
    stop, begun = threading.Event(), threading.Event()

    def write():
        db = store.connect(db_url)
        try:
            n = 0
            while not stop.is_set():
                with db.transaction():
                    db.execute("INSERT INTO players (name) VALUES (?)", ("w%d" % n,))
                    db.execute("INSERT INTO players (name) VALUES (?)", ("w%d" % (n + 1),))
                n += 2
                begun.set()
        finally:
            begun.set()
            db.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert begun.wait(WAIT_S)
        made = [backup.make(db_url, tmp_path / "b", _now(n), create=True) for n in range(3)]
        assert writer.is_alive(), "the writer wrote all along"
    finally:
        stop.set()
        writer.join()
    counts = [m.counts["players"] for m in made]
    assert counts == sorted(counts) and all(n % 2 == 0 for n in counts), counts
    backup.restore(made[-1].path, another_db_url)
    db = store.connect(another_db_url)
    try:
        names = [r["name"] for r in db.all("SELECT name FROM players ORDER BY id")]
    finally:
        db.close()
    assert names == ["w%d" % k for k in range(counts[-1])]


def test_bad_input_is_one_line_and_changes_nothing(db_url, another_db_url, tmp_path):
    seq = dict.fromkeys(BOARDS, 0)
    a_night(db_url, 3, ["Ann", "Bob", "Cy", "Di"], seq)
    folder = tmp_path / "kept"
    folder.mkdir()
    good = as_json("backup", "--db", db_url, "--to", str(folder))["path"]

    def refused(status, words, *args):
        done = cli(*args)
        assert done.returncode == status and done.stdout == "", (done.returncode, done.stdout, done.stderr)
        last = done.stderr.strip().splitlines()[-1]
        assert last.startswith("cribboard: error: ") and words in last, done.stderr
        return last

    refused(2, "there is no folder", "backup", "--db", db_url, "--to", str(tmp_path / "not-there"))
    assert not (tmp_path / "not-there").exists()
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    refused(2, "", "backup", "--db", db_url, "--to", str(a_file))  # (click's own words: a file, not a folder)
    shut = tmp_path / "shut"
    shut.mkdir()
    with read_only(shut) as where:
        refused(1, "%s is not writable" % where, "backup", "--db", db_url, "--to", str(where))
        assert list(where.iterdir()) == []

    before = games_of(db_url)
    refused(2, "is not a cribboard backup", "restore", str(a_file), "--db", another_db_url)
    stranger = tmp_path / "stranger.sqlite3"
    import sqlite3

    conn = sqlite3.connect(stranger)
    conn.execute("CREATE TABLE t (x)")
    conn.close()
    refused(2, "not a cribboard one", "restore", str(stranger), "--db", another_db_url)
    refused(
        2,
        "holds 2 games, 4 players, 1 club night, 2 paired boards: a restore replaces all of it",
        "restore",
        good,
        "--db",
        db_url,
    )
    assert games_of(db_url) == before
    other = str(tmp_path / "other.sqlite3") if db_url.startswith("postgres") else "postgresql://nobody@/nowhere"
    refused(2, "restores into a", "restore", good, "--db", other)
    refused(2, "does not exist", "restore", str(tmp_path / "gone.sqlite3"), "--db", another_db_url)
    assert backup.holds(another_db_url) in (None, {}), "nothing was restored by the refusals"

    play(db_url, BOARDS[0], 99, ["Gus", "Hal"], 0, 90)
    assert ok("restore", good, "--db", db_url, "--over").returncode == 0
    assert games_of(db_url) == before, "--over: the game stored after the backup is gone"


def test_the_server_backs_up_at_its_start_after_a_night_ends_and_keeps_the_newest(db_url, tmp_path):
    seq = dict.fromkeys(BOARDS, 0)
    folder = tmp_path / "season"
    folder.mkdir()
    store.connect(db_url).close()
    os.environ["CRIBBOARD_BACKUP_CHECK"] = "0.2"  # (clubserver starts serve with this process's environment)
    try:
        proc, _url = clubserver.start(db_url, args=("--backup-dir", str(folder), "--backup-keep", "2"))
    finally:
        del os.environ["CRIBBOARD_BACKUP_CHECK"]
    try:

        def made(*words):
            return lambda lines: [line for line in lines if "backup made" in line and all(w in line for w in words)]

        (first,) = proc.said.wait_for(made("(the first in this folder)"))
        assert str(folder) in first and "0 games" in first, first
        for night in (1, 2):  # (a backup as it begins too: the night restored with its draw if lost mid-way)
            a_night(db_url, night, ["Ann", "Bob", "Cy", "Di"], seq)
            assert proc.said.wait_for(
                made("(after a club night or tournament began or ended)", "%d games" % (2 * night))
            ), "".join(proc.said.lines)
        assert proc.said.wait_for(made("keeping 2"))
        kept = backup.backups_in(folder)
        assert len(kept) == 2 and backup.read_back(kept[-1]).counts["nights"] == 2
    finally:
        err = clubserver.stop(proc)
    assert "backup failed" not in err, err


def _now(n):
    from datetime import datetime, timedelta, timezone

    return datetime(2026, 11, 29, 20, 0, tzinfo=timezone.utc) + timedelta(seconds=n)
