# An upgrade under load (issue 71): the club's server of the release before
# (the last commit whose schema is the one before this one's, taken from
# this checkout's history with `git archive`) serves boards (the board's
# own sender on CPython, real sockets) on a database it made; it is stopped
# as an upgrade stops it (SIGTERM) while the boards report, and this
# release's server started on the same database and port. The migration
# runs as it starts, nothing acknowledged is lost, and the boards go on: at
# the end every game logged is stored once, on both engines. Run by
# `make test-club`, one test at a time.
import json
import os
import random
import subprocess
import tarfile
import time
from pathlib import Path

import clubserver
import pytest
from deadline import WAIT_S
from test_club_kill import a_board, held, play, poll, sender_for

from cribboard import store
from cribboard.store.migrations import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]
BOARDS = 20


def release_before(into):
    """This checkout's code as it was at the last commit before the schema became this one's: its host
    package and its board code, in folder `into`."""

    def git(*args):
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, timeout=WAIT_S)
        if done.returncode:
            pytest.skip("no git history here to take the release before from: %s" % done.stderr.decode()[:200])
        return done.stdout

    bumped = (
        git(
            "log",
            "-1",
            "--format=%H",
            "-S",
            "SCHEMA_VERSION = %d" % SCHEMA_VERSION,
            "--",
            "host/cribboard/store/migrations.py",
        )
        .decode()
        .strip()
    )
    into.mkdir(parents=True, exist_ok=True)
    archive = into / "before.tar"
    archive.write_bytes(git("archive", "--format=tar", bumped + "^", "host", "firmware/lib"))
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def start_before(code, db_url):
    """The release before's `serve` (its modules first on the path)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(code / "host"), str(code / "firmware" / "lib")]))
    return clubserver.start(db_url, env=env)


def version(db_url):
    conn = store.connect(db_url, migrated=False)
    try:
        return conn.value("SELECT MAX(version) FROM schema_version")
    finally:
        conn.close()


@pytest.mark.club
@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_an_upgrade_under_the_boards_load_migrates_once_and_loses_nothing(tmp_path, request, engine):
    code = release_before(tmp_path / "before")
    db_url = (
        str(tmp_path / "club.sqlite3") if engine == "sqlite" else request.getfixturevalue("pg_cluster").new_database()
    )
    old, url = start_before(code, db_url)
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    assert version(db_url) == SCHEMA_VERSION - 1, "the release before made its database"
    made = [a_board(n) for n in range(BOARDS)]
    conn = store.connect(db_url, migrated=False)
    try:
        for ident, _table in made:
            conn.execute("INSERT INTO club_boards (board, paired_at, boot, n) VALUES (?, '2026-09-01', 0, 0)", (ident,))
            conn.execute("INSERT INTO club_keys (board, key) VALUES (?, ?)", (ident, clubserver.KEY.encode()))
    finally:
        conn.close()
    boards = [(ident, table, sender_for(table, url)) for ident, table in made]
    rng = random.Random(71)
    proc = old
    try:
        for _ in range(3):
            play(boards, rng)
            poll(boards, 100)
        deadline = time.monotonic() + WAIT_S
        while not any(s.busy() for _i, _t, s in boards):  # the upgrade's stop comes with requests under way
            assert time.monotonic() < deadline
            play(boards, rng)
            poll(boards, 1)
        clubserver.stop(old)  # (SIGTERM, as systemctl restart does)
        acked = {ident: table.app.board.acked for ident, table, _s in boards}
        proc, url = clubserver.start(db_url, port)  # this release's, where the boards look
        assert version(db_url) == SCHEMA_VERSION, "migrated as it started"
        now = held(db_url)
        assert [(i, s) for i, a in acked.items() for s in range(1, a + 1) if s not in now.get(i, ())] == []
        for _ in range(3):
            play(boards, rng)
            poll(boards, 100)
        deadline = time.monotonic() + 10 * WAIT_S
        while any(table.app.board.acked < table.store.last_seq for _i, table, _s in boards):
            assert time.monotonic() < deadline, "the boards' games did not all go"
            poll(boards, 50)
    finally:
        err = clubserver.stop(proc)
    assert "Traceback" not in err, err
    conn = store.connect(db_url)
    try:
        rows = conn.all("SELECT board, seq, record FROM games ORDER BY board, seq")
        assert conn.value("SELECT COUNT(*) FROM schema_version") == 1
    finally:
        conn.close()
    logged = sorted((i, s, json.loads(t)) for i, table, _s in boards for s, t in table.store.since(0, 1000))
    assert [(r["board"], r["seq"], json.loads(r["record"])) for r in rows] == logged  # each once, as logged
