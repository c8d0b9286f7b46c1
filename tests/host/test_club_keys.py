# Who can sign as a board (issue 42): the keys live apart from the results
# (club_keys), as bytes; a SQLite file is made for its user alone and a
# readable one is warned of; on PostgreSQL a reader's role, granted as
# docs/cli.md says, reads the results and not the keys; a key is rotated
# without losing the board's counter, so nothing taken before is taken again.
import json
import os
import stat

import clubserver
import psycopg
import pytest
from clirun import cli
from test_club import LIVE, send
from test_migrations import _tables

from cribboard import store
from cribboard.web import scoreboard


def test_a_new_sqlite_database_is_its_users_alone_and_a_readable_one_is_warned_of(tmp_path):
    db = tmp_path / "club.sqlite3"
    store.connect(str(db)).close()
    assert stat.S_IMODE(os.stat(db).st_mode) == 0o600
    os.chmod(db, 0o644)
    proc, _url = clubserver.start(str(db))
    err = clubserver.stop(proc)
    assert "can be read by other users of this machine, and it holds the boards' keys" in err
    assert err.count("chmod 600") == 1


def test_a_rotated_key_signs_from_then_on_and_the_counter_starts_afresh(board, tmp_path):
    db = str(tmp_path / "club.sqlite3")
    store.connect(db).close()
    proc, url = clubserver.start(db)
    try:
        assert cli("pair", "--port", board.port, "--server", url, "--db", db).returncode == 0
        ident = json.loads(cli("boards", "--db", db, "--json").stdout)[0]["board"]
        old = json.loads((board.flash / "club.json").read_text())["key"]
        state = json.loads(json.dumps(scoreboard.read_state(board.flash / "state.json")))
        assert send(url, LIVE, {"state": state}, "3.5", board=ident, key=old)[0] == 200  # the board, reporting
        wrong = cli("pair", "--port", board.port, "--server", url, "--db", db, "--rotate", "0ther")
        assert wrong.returncode == 2
        assert "nothing was changed" in wrong.stderr
        done = cli("pair", "--port", board.port, "--server", url, "--db", db, "--rotate", ident, "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == {"board": ident, "server": url, "rotated": True, "resent": False}
        new = json.loads((board.flash / "club.json").read_text())["key"]
        assert new != old
        boards = json.loads(cli("boards", "--db", db, "--json").stdout)
        assert [(b["boot"], b["n"]) for b in boards] == [(0, 1)]  # a new key counts afresh: the proof's first
        assert send(url, LIVE, {"state": state}, "3.5", board=ident, key=old)[0] == 403  # the old key's: never again
        assert send(url, LIVE, {"state": state}, "3.7", board=ident, key=old)[0] == 403  # the old key signs nothing
        assert send(url, LIVE, {"state": state}, "3.7", board=ident, key=new)[0] == 200
        assert send(url, LIVE, {"state": state}, "3.7", board=ident, key=new)[0] == 409  # the new key's, once
        conn = store.connect(db)
        assert store.club.key_of(conn, ident)["key"] == new.encode()  # kept as the bytes it signs with
        conn.close()
    finally:
        clubserver.stop(proc)


def test_keys_kept_beside_the_results_before_move_apart_and_still_sign(db_url, tmp_path):
    db = store.connect(db_url, migrated=False)
    with db.transaction():
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for v in range(1, 7):
            _tables(db, v)
        db.execute("INSERT INTO schema_version (version) VALUES (6)")
        db.execute(
            "INSERT INTO club_boards (board, key, paired_at, revoked_at, boot, n) VALUES "
            "('b0ard', ?, '2026-11-01T00:00:00+00:00', NULL, 4, 9)",
            (clubserver.KEY,),
        )
    db.close()
    with clubserver.serving(db_url, "other") as (url, _db, _proc):  # opening it migrates it
        assert send(url, LIVE, {"state": {}}, "4.9")[0] == 409  # its counter came along
        assert send(url, LIVE, {"state": {}}, "4.10")[0] == 422  # signed with the old key: a state no board's
    db = store.connect(db_url)
    assert "key" not in db.one("SELECT * FROM club_boards WHERE board = 'b0ard'")
    assert store.club.key_of(db, "b0ard")["key"] == clubserver.KEY.encode()
    db.close()


READER_GRANTS = """
GRANT CONNECT ON DATABASE {db} TO cribboard_reader;
GRANT USAGE ON SCHEMA public TO cribboard_reader;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO cribboard_reader;
REVOKE SELECT ON club_keys FROM cribboard_reader;
"""


def test_on_postgresql_a_reader_of_results_cannot_read_the_keys(pg_cluster):
    url = pg_cluster.new_database()
    name = url.split("?")[0].rsplit("/", 1)[1]
    admin = psycopg.connect(url, autocommit=True)
    for role in ("cribboard_server", "cribboard_reader"):
        admin.execute("DO $$ BEGIN CREATE ROLE %s LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$" % role)
    admin.execute("ALTER DATABASE %s OWNER TO cribboard_server" % name)
    admin.execute("ALTER SCHEMA public OWNER TO cribboard_server")
    as_server = url.replace("postgresql://cribboard@", "postgresql://cribboard_server@")
    as_reader = url.replace("postgresql://cribboard@", "postgresql://cribboard_reader@")
    clubserver.pair(as_server, "b0ard")  # the server's role makes the tables (and owns them)
    for statement in READER_GRANTS.format(db=name).strip().splitlines():
        admin.execute(statement)
    admin.close()
    reader = psycopg.connect(as_reader, autocommit=True)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        reader.execute("SELECT key FROM club_keys")
    reader.close()
    done = cli("boards", "--db", as_reader, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["board"] == "b0ard"  # the pairings, not the keys
    assert cli("matches", "--db", as_reader, "--json").returncode == 0


def test_a_live_state_is_kept_with_its_counter_once_whatever_the_engine(db_url):
    """store.club.take_live: the counter and the state together or neither (PostgreSQL's one statement,
    SQLite's transaction): a counter taken already, or a board revoked, keeps nothing and says so."""
    db = store.connect(db_url)
    try:
        store.club.pair(db, "b0ard", b"k" * 32, "2001-11-30T00:00:00+00:00")
        assert store.club.take_live(db, "b0ard", 1, 1, "now", '{"a": 1}') == 1
        assert store.club.take_live(db, "b0ard", 1, 1, "now", '{"a": 2}') is None  # the same counter: a replay
        assert store.club.take_live(db, "b0ard", 1, 0, "now", '{"a": 3}') is None  # an earlier one
        assert store.club.take_live(db, "b0ard", 2, 0, "now", '{"a": 4}') == 2  # a new boot counts after
        assert store.club.key_of(db, "b0ard")["last"] == (2, 0)
        assert [r["state"] for r in store.club.live_states(db, ["b0ard"])] == ['{"a": 4}']
        store.club.unpair(db, "b0ard", "later")
        assert store.club.take_live(db, "b0ard", 3, 0, "now", '{"a": 5}') is None  # revoked: nothing kept
        assert store.club.live_versions(db) == {"b0ard": 2}
        assert store.club.key_of(db, "nobody") is None
    finally:
        db.close()


def test_a_live_state_taken_with_a_key_is_kept_only_while_that_key_is_the_boards(db_url):
    """take_live with key (a server's one statement for a board whose key it keeps in memory): the key
    checked again with the write; a key rotated since, or revoked, keeps nothing."""
    db = store.connect(db_url)
    try:
        store.club.pair(db, "b0ard", b"k" * 32, "2001-11-30T00:00:00+00:00")
        assert store.club.take_live(db, "b0ard", 1, 1, "now", '{"a": 1}', b"k" * 32) == 1
        assert store.club.take_live(db, "b0ard", 1, 2, "now", '{"a": 2}', b"j" * 32) is None  # not its key
        assert store.club.take_live(db, "b0ard", 1, 1, "now", '{"a": 3}', b"k" * 32) is None  # a replay
        store.club.pair(db, "b0ard", b"n" * 32, "2001-12-01T00:00:00+00:00")  # paired again: a new key
        assert store.club.take_live(db, "b0ard", 1, 2, "now", '{"a": 4}', b"k" * 32) is None  # the old key's
        assert store.club.take_live(db, "b0ard", 1, 2, "now", '{"a": 5}', b"n" * 32) == 2
        store.club.unpair(db, "b0ard", "later")
        assert store.club.take_live(db, "b0ard", 1, 3, "now", '{"a": 6}', b"n" * 32) is None  # revoked
        assert [r["state"] for r in store.club.live_states(db, ["b0ard"])] == ['{"a": 5}']
        assert store.club.key_of(db, "b0ard")["last"] == (1, 2)
    finally:
        db.close()
