# Every failure is one clear line and the right exit status, never a
# traceback: databases that are folders, empty, garbage, someone else's or
# busy; SQLite URLs as SQLAlchemy reads them; a chart into a missing folder;
# flash on a port with nothing behind it.
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import tty

import pytest
from clirun import ENGLISH, cli, one_line_error
from damage import damage, read_only
from deadline import COMMAND_S, WAIT_S

from cribboard import records, store
from cribcore.match import Match
from cribcore.record import game_record


def test_a_database_that_cannot_be_one_is_refused_in_one_line(tmp_path):
    (tmp_path / "garbage.db").write_text("not a database at all\n" * 100)
    foreign = sqlite3.connect(tmp_path / "foreign.db")
    foreign.execute("CREATE TABLE invoices (n INTEGER)")
    foreign.commit()
    foreign.close()
    cases = {
        str(tmp_path): "is a folder",
        "": "empty",
        str(tmp_path / "garbage.db"): "not a database",
        str(tmp_path / "foreign.db"): "not cribboard's",
        "/proc/x/games.db": "no database at",
        "sqlite://somehost/x.db": "sqlite:///relative",
        "ftp://x/y": "a database is a file",
    }
    for url, why in cases.items():
        line = one_line_error(cli("matches", "--db", url))
        assert why in line, (url, line)
    assert sqlite3.connect(tmp_path / "foreign.db").execute("SELECT name FROM sqlite_master").fetchall() == [
        ("invoices",)
    ]  # untouched


def test_a_damaged_database_is_refused_before_a_command_writes_to_it(tmp_path):
    """A page of the games table overwritten: a write elsewhere (a sheet, a new tournament, a night's
    result) would succeed beside it, so every command that writes checks first, says the file is damaged
    and how to mend it, and leaves it as it was."""
    db = str(tmp_path / "club.db")
    assert cli("night", "new", "Ann", "Bob", "Cy", "Dee", "--db", db).returncode == 0
    damage(db)
    before = hashlib.sha256(open(db, "rb").read()).hexdigest()
    writes = [
        ["tournament", "new", *["P%d" % i for i in range(8)]],
        ["night", "result", "1", "Ann", "121", "Bob", "90"],
        ["piquet", "sheet", "--names", "Ann,Bob"],
        ["barbu", "sheet", "--names", "Ann,Bob,Cy,Dee"],
        ["players", "rename", "Ann", "--player", "Anne"],
    ]
    for args in writes:
        line = one_line_error(cli(*args, "--db", db, stdin=""))
        assert "is damaged" in line and ".recover" in line, (args, line)
    assert hashlib.sha256(open(db, "rb").read()).hexdigest() == before


def test_a_database_the_user_may_only_read_is_read_and_a_write_refused_before_it_begins(tmp_path):
    """A file on a read-only mount, or another user's: the commands that read it work; one that would
    write says so in a line before working anything out, and the file is as it was."""
    db = str(tmp_path / "club.db")
    assert cli("night", "new", "Ann", "Bob", "Cy", "Dee", "--db", db).returncode == 0
    before = hashlib.sha256(open(db, "rb").read()).hexdigest()
    with read_only(db):
        for args in (["night", "standings"], ["stats"], ["players", "list"]):
            assert cli(*args, "--db", db).returncode == 0, args
        for args in (
            ["tournament", "new", *["P%d" % i for i in range(8)]],
            ["night", "result", "2", "Ann", "121", "Bob", "90"],
            ["piquet", "sheet", "--names", "Ann,Bob"],
            ["players", "rename", "Ann", "--player", "Anne"],
        ):
            done = cli(*args, "--db", db, stdin="")
            assert done.returncode == 1, (args, done.stderr)
            line = one_line_error(done)
            assert "cannot be written here" in line and "nothing was written" in line, (args, line)
            assert "rounds" not in done.stderr, "refused before the draw is said: %s" % done.stderr
    assert hashlib.sha256(open(db, "rb").read()).hexdigest() == before


def test_sqlite_urls_mean_what_sqlalchemy_means(tmp_path):
    assert cli("piquet", "sheet", "--db", "sqlite:///here.db", cwd=tmp_path, stdin="").returncode == 0
    assert (tmp_path / "here.db").exists()  # relative to where the command runs, not the root
    assert cli("matches", "--db", "sqlite:///here.db", cwd=tmp_path).returncode == 0
    absolute = tmp_path / "sub" / "abs.db"
    made = cli("piquet", "sheet", "--db", "sqlite:///" + str(absolute), stdin="")  # four slashes: absolute
    assert made.returncode == 0
    assert absolute.exists()
    assert "created the database %s" % absolute in made.stderr


def test_a_command_that_reads_makes_no_database_of_an_empty_file_or_an_empty_postgresql_database(tmp_path, pg_cluster):
    empty = tmp_path / "e.db"
    empty.write_bytes(b"")
    for url, shown in ((str(empty), str(empty)), (pg_cluster.new_database(), "test_")):
        for command in (["matches"], ["stats"], ["standings"], ["export", "--format", "csv"]):
            line = one_line_error(cli(*command, "--db", url))
            assert "is empty: no games were ever stored there" in line and shown in line, (command, line)
        assert url != str(empty) or empty.stat().st_size == 0  # nothing was written
        done = cli("piquet", "sheet", "--db", url, "--json", stdin="45 12\n")  # a command that writes: made
        assert done.returncode == 0, done.stderr
        assert json.loads(cli("matches", "--db", url, "--json").stdout) == []  # (a partie unfinished)


def test_a_postgresql_server_that_answers_and_refuses_is_not_said_to_be_unreachable(tmp_path, pg_cluster):
    where = pg_cluster.url().split("?")[1]
    for url, said in (
        (
            "postgresql://cribboard@/nosuchdb?" + where,
            "has no database nosuchdb: its owner makes it with `createdb -O ROLE nosuchdb`",
        ),
        (
            "postgresql://nosuchrole@/postgres?" + where,
            "has no role nosuchrole: an administrator makes it with `createuser nosuchrole`",
        ),
    ):
        for command in (["matches"], ["serve", "--http", "127.0.0.1:0"]):
            line = one_line_error(cli(*command, "--db", url))
            assert said in line and "cannot reach" not in line, (command, line)
    line = one_line_error(cli("matches", "--db", "postgresql://cribboard@/x?host=" + str(tmp_path / "none")))
    assert "cannot reach the PostgreSQL server" in line  # nothing listens there


def test_a_typo_in_db_makes_no_new_database_only_a_command_that_writes_does(tmp_path):
    typo = tmp_path / "clubb" / "league.db"
    for args in (
        ("matches",),
        ("stats", "--json"),
        ("standings",),
        ("export",),
        ("crashes",),
        ("players", "list"),
        ("piquet", "list"),
        ("barbu", "show", "1"),
        ("plot", "1", "-o", str(tmp_path / "x.png")),
    ):
        done = cli(*args, "--db", str(typo))
        line = one_line_error(done)
        assert done.returncode == 1 and "no database at %s" % typo in line, (args, line)
        assert done.stdout == ""
    assert not typo.exists()
    assert not typo.parent.exists()
    made = cli("barbu", "sheet", "--names", "A,B,C,D", "--db", str(typo), stdin="")
    assert made.returncode == 0 and typo.exists(), made.stderr
    assert "created the database %s" % typo in made.stderr
    assert cli("matches", "--db", str(typo)).returncode == 0
    assert "created" not in cli("piquet", "sheet", "--db", str(typo), stdin="").stderr  # only once


def one_game(path):
    conn = store.connect(str(path))
    m = Match()
    while not m.game.over():
        m.game.add(0, 29, "points", 10)
    rec = dict(game_record(m, 0), match=1, game_no=1, board="b0ard", boot=1, ticks=20, wall=None, firmware="t")
    store.games.add(conn, "b0ard", "t", [(1, records.check(json.dumps(rec)))], "now", {1: None})
    conn.close()


def test_a_chart_into_a_missing_folder_is_one_line(tmp_path):
    path = tmp_path / "games.db"
    one_game(path)
    line = one_line_error(cli("plot", "1", "--db", str(path), "-o", str(tmp_path / "no" / "such" / "c.png")))
    assert "cannot write" in line
    assert "No such file or directory" in line


def test_an_id_no_database_can_hold_is_a_usage_error_not_a_traceback(tmp_path):
    path = tmp_path / "games.db"
    one_game(path)
    for args in (
        ["plot", "9" * 30, "-o", str(tmp_path / "c.png")],
        ["plot", "0", "-o", str(tmp_path / "c.png")],
        ["players", "rename", "Ann", "--track", "1", "--game", "2147483648"],
        ["piquet", "show", "99999999999"],
        ["barbu", "show", "0"],
    ):
        done = cli(*args, "--db", str(path))
        assert done.returncode == 2 and "Traceback" not in done.stderr and "range" in done.stderr, (args, done.stderr)


def test_a_file_the_device_refuses_is_an_error_never_reported_written(tmp_path):
    path = tmp_path / "games.db"
    one_game(path)
    for args in (("plot", "1"), ("export",), ("export", "--format", "json")):
        done = cli(*args, "--db", str(path), "-o", "/dev/full")
        line = one_line_error(done)
        assert done.returncode == 1 and "cannot write /dev/full" in line and "wrote" not in done.stderr, (args, line)
    done = cli("export", "--db", str(path), "-o", str(tmp_path / "games.csv"))
    assert done.returncode == 0
    assert (tmp_path / "games.csv").read_text().startswith("id,")


def test_a_wait_the_environment_sets_wrong_is_a_usage_error_before_anything_is_opened(tmp_path):
    path = tmp_path / "games.db"
    one_game(path)
    for text in ("abc", "-1", "0", "1.5", "99999"):
        line = one_line_error(cli("matches", "--db", str(path), env={"CRIBBOARD_DB_WAIT": text}), code=2)
        assert "CRIBBOARD_DB_WAIT wants whole seconds" in line and text in line, line
    line = one_line_error(
        cli("sync", "--db", str(path), "--port", str(tmp_path / "ttyACM9"), env={"CRIBBOARD_LINK_WAIT": "soon"}), code=2
    )
    assert "CRIBBOARD_LINK_WAIT wants seconds" in line, line
    assert cli("matches", "--db", str(path), env={"CRIBBOARD_DB_WAIT": "2"}).returncode == 0


def test_a_port_that_is_no_serial_port_is_said_so_not_as_an_ioctl(tmp_path):
    path = tmp_path / "games.db"
    one_game(path)
    (tmp_path / "notes.txt").write_text("x")
    for port in ("/dev/null", str(tmp_path), str(tmp_path / "notes.txt")):
        for args in (("sync", "--db", str(path)), ("players", "send", "Ann", "Bob"), ("flash",)):
            line = one_line_error(cli(*args, "--port", port), code=2)
            assert "%s is not a serial port" % port in line and "ioctl" not in line, (args, line)


def test_a_command_started_with_its_output_closed_fails_saying_so_and_touches_nothing(tmp_path):
    path = tmp_path / "games.db"
    for args in (("score", "6C", "7S", "8D", "8H", "9S"), ("piquet", "sheet", "--db", str(path))):
        done = subprocess.run(
            ["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "cribboard", *args],
            input="45 12\n",
            capture_output=True,
            text=True,
            timeout=COMMAND_S,
            env={**os.environ, **ENGLISH},
        )
        line = one_line_error(done)
        assert "the standard output is closed" in line, (args, line)
    assert not path.exists()  # the sheet made no database it could not report on


def test_a_busy_database_is_waited_for_with_a_word_then_a_clear_error(tmp_path):
    """A command that writes waits for another writer, saying so, then fails clearly; one that only reads
    reads meanwhile (it takes no write lock)."""
    path = tmp_path / "busy.db"
    store.connect(str(path)).close()
    assert cli("night", "new", "Ann", "Bob", "--rounds", "1", "--table", "1", "--db", str(path)).returncode == 0
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer, stuck
    wait = {"CRIBBOARD_DB_WAIT": "1"}
    try:
        done = cli("night", "scheme", "--skunk", "4", "--double-skunk", "4", "--db", str(path), env=wait)
        one = cli("night", "result", "1", "Ann", "121", "Bob", "90", "--db", str(path), env=wait)  # one statement
        read = cli("matches", "--db", str(path), env=wait)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    for writer in (done, one):
        line = one_line_error(writer)
        assert "is busy" in writer.stderr
        assert "waiting up to 1 s" in writer.stderr
        assert "stayed busy for 1 s" in line
    assert read.returncode == 0 and read.stderr == "", read.stderr
    assert cli("night", "scheme", "--skunk", "4", "--double-skunk", "4", "--db", str(path)).returncode == 0  # free


def test_first_uses_of_a_new_database_at_the_same_moment_all_succeed(tmp_path):
    path = tmp_path / "new.db"
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "cribboard", "piquet", "sheet", "--db", str(path), "--json"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err  # the migration runs under a lock: no "table already exists"
        assert json.loads(out)["deals"] == []
    assert json.loads(cli("matches", "--db", str(path), "--json").stdout) == []


def flash_on_a_pty(answer=None):
    """`cribboard flash` on a pseudo-terminal: nothing behind it, or one
    that answers everything it is sent with `answer`. No MicroPython answer
    is coming, late or not: mpremote's own waits (CRIBBOARD_LINK_WAIT under
    theirs), not the tests' long ones."""
    import select
    import threading

    master, slave = os.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    stop = threading.Event()

    def respond():
        while not stop.is_set():
            if select.select([master], [], [], 0.1)[0]:
                try:
                    os.read(master, 4096)
                    os.write(master, answer)
                except OSError:
                    return

    helper = threading.Thread(target=respond, daemon=True)
    if answer is not None:
        helper.start()
    try:
        done = cli("flash", "--port", name, env={"CRIBBOARD_LINK_WAIT": "1"}, timeout=COMMAND_S)
    finally:
        stop.set()
        if answer is not None:
            helper.join(WAIT_S)
        os.close(master)
        os.close(slave)
    return name, done


def test_flash_on_a_port_with_nothing_behind_it_gives_up_with_one_line():
    name, done = flash_on_a_pty()
    line = one_line_error(done)
    assert "does not answer as a MicroPython board" in line
    assert "it sent nothing" in line
    assert done.stdout == ""
    said = done.stderr.splitlines()
    assert said[0].startswith("flash: connecting to %s (stopping its program for the REPL" % name), said
    assert len(said) == 2
    assert "b''" not in done.stderr


def test_flash_on_a_port_that_answers_junk_shows_it_escaped_in_its_one_line():
    _name, done = flash_on_a_pty(b"\x1b]0;owned\x07\x1b[2Jgarbage\r\n")
    line = one_line_error(done)
    assert "does not answer as a MicroPython board" in line and "garbage" in line, line
    assert "\x1b" not in done.stderr
    assert "\x07" not in done.stderr
    assert len(done.stderr.splitlines()) == 2


HUGE = "5H " * 3_500_000  # a 10 MB line


def test_a_huge_line_or_name_is_refused_unread_and_quoted_short(tmp_path):
    for args, good in ((("score",), "5H 5S 5C JD 5D"), (("discard", "--dealer"), "5H 5S JD 4C 6H KH")):
        done = cli(*args, stdin=good + "\n" + HUGE + "\n" + good + "\n")
        assert done.returncode == 2, (args, done.stderr[-300:])
        (said,) = done.stderr.splitlines()
        assert len(said) < 500 and "line 2: the line is 10500000 characters long" in said, (args, said[:300])
        if args == ("score",):
            assert done.stdout.split() == ["29", "29"]  # the other lines are still answered
    db = str(tmp_path / "club.sqlite3")
    for args, good in ((("piquet", "sheet", "--names", "Ann,Bob"), "10 20"), (("barbu", "sheet"), "queens 1 3 0 0")):
        done = cli(*args, "--db", db, stdin=good + "\n" + HUGE + "\n")
        line = one_line_error(done, 2)
        assert len(done.stderr) < 1000 and "line 2: the line is" in line, (args, line[:300])
    name = "N" * 10_000
    for args in (
        ("piquet", "sheet", "--names", "Ann," + name),
        ("barbu", "sheet", "--names", "A,B,C," + name),
        ("players", "rename", name, "--player", "Ann"),
        ("score", name),
    ):
        done = cli(*args, "--db", db, stdin="") if args[0] != "score" else cli(*args)
        assert done.returncode in (1, 2) and len(done.stderr) < 500, (args[:2], done.stderr[:300])
        assert "…" in done.stderr and "Traceback" not in done.stderr, args[:2]
        if args[0] != "score":  # a name is quoted to 80 characters; any other line ends at 400
            assert "N" * 100 not in done.stderr, args[:2]


def test_a_group_without_its_command_and_a_server_that_is_down_are_one_line():
    for group, commands in (
        ("players", "list, rename, send"),
        ("piquet", "deal, list, sheet, show"),
        ("hardware", "check, docs"),
    ):
        line = one_line_error(cli(group), 2)
        assert line == (
            "cribboard: error: cribboard %s needs a command: %s (see `cribboard %s --help`)" % (group, commands, group)
        ), line
    done = cli("matches", "--db", "postgresql://nobody@127.0.0.1:1/league")  # nothing listens on port 1
    line = one_line_error(done)
    assert len(done.stderr.splitlines()) == 1
    assert "cannot reach the PostgreSQL server" in line
    assert "Is the server running" in line  # psycopg's hint, kept, on the same line


def test_a_sheet_that_is_not_utf8_is_one_line_naming_its_line_and_makes_no_database(tmp_path):
    sheet = tmp_path / "latin1.txt"
    sheet.write_bytes("# the club, Friday\nJosé 3\n".encode("latin-1"))  # a sheet saved by an editor in Latin-1
    for game in ("piquet", "barbu"):
        db = tmp_path / (game + ".db")
        line = one_line_error(cli(game, "sheet", str(sheet), "--db", str(db)), 2)
        assert "line 2: not UTF-8 text" in line
        assert "latin1.txt" in line
        assert not db.exists()  # nothing was entered, so nothing was made
        piped = subprocess.run(
            [sys.executable, "-m", "cribboard", game, "sheet", "--db", str(db)],
            input=sheet.read_bytes(),
            capture_output=True,
            env={**os.environ, **ENGLISH},
        )
        assert piped.returncode == 2 and b"line 2: not UTF-8 text" in piped.stderr, piped.stderr
        assert b"Traceback" not in piped.stderr
    bom = tmp_path / "bom.txt"
    bom.write_bytes("\ufeff45 12\r\n".encode())  # UTF-8 with a BOM and CRLF, as Windows' Notepad saves it
    done = cli("piquet", "sheet", str(bom), "--db", str(tmp_path / "p.db"), "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["deals"][0]["points"] == [45, 12], done.stderr


def test_a_name_that_is_no_text_is_refused_before_the_board_is_asked(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "cribboard", "players", "send", "--port", str(tmp_path / "none"), b"\xff\xfe", "Bob"],
        capture_output=True,
        text=True,
        env={**os.environ, **ENGLISH},
    )
    line = one_line_error(done, 2)
    assert "is not a name: a name is text" in line
    assert "\\udcff\\udcfe" in line


READERS = (
    ("matches", "--json"),
    ("stats", "--json"),
    ("standings", "--json"),
    ("export", "--format", "json"),
    ("players", "list", "--json"),
    ("crashes", "--json"),
    ("barbu", "list", "--json"),
    ("night", "list", "--json"),
)


def test_a_command_that_reads_makes_nothing_before_the_first_sync_and_says_why(tmp_path):
    """No --db and nothing synced yet: the default database is not there, and reading makes none (not even
    its folders, under a HOME that does not exist); each listing is empty and says why."""
    home = tmp_path / "no-such-home"
    env = {"HOME": str(home), "XDG_DATA_HOME": "", "CRIBBOARD_DB": ""}
    for args in READERS:
        done = cli(*args, env=env)  # (an empty CRIBBOARD_DB is none: click reads it so)
        assert done.returncode == 0, (args, done.stderr)
        assert "no database yet at %s" % home in done.stderr, (args, done.stderr)
        assert _nothing(json.loads(done.stdout)), (args, done.stdout)
    assert not home.exists()
    refused = cli("players", "rename", "Ann", "--player", "Bob", env=env)  # a change to what is kept: none
    assert refused.returncode == 1
    assert "no database at %s" % home in one_line_error(refused)
    assert not home.exists()


def _nothing(data):
    """Whether a listing lists nothing: empty, or made of empty lists."""
    return all(_nothing(v) for v in data.values()) if isinstance(data, dict) else data == []


def _files(folder):
    return {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.iterdir()}


def test_a_command_that_reads_writes_nothing_to_the_database_or_beside_it(tmp_path):
    """A database read by every listing, kept by a board's sync (rollback journal) and by a club's server
    (WAL): afterwards the folder holds the same files, byte for byte, with the same times."""
    for mode in ("delete", "wal"):
        folder = tmp_path / mode
        folder.mkdir()
        path = folder / "club.db"
        one_game(path)
        conn = sqlite3.connect(path)
        assert conn.execute("PRAGMA journal_mode = %s" % mode).fetchone()[0] == mode
        conn.close()
        before = _files(folder)
        assert list(before) == ["club.db"]
        for args in READERS + (("night", "standings"),):
            done = cli(*args, "--db", str(path))
            assert done.returncode in (0, 2), (args, done.stderr)  # (no night yet: a usage error)
            assert _files(folder) == before, (mode, args)


def test_a_database_whose_schema_is_older_is_brought_up_to_date_once_then_read_only(tmp_path, monkeypatch):
    """Reading an older database writes its migration (as any command would), and nothing more; a WAL file
    the user may not write is read as the unchanging file it is, leaving nothing beside it."""
    from cribboard.store import connection, engine

    path = tmp_path / "old.db"
    one_game(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    for (trigger,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        conn.execute("DROP TRIGGER %s" % trigger)  # (what 17 adds, with the table they move)
    conn.execute("DROP TABLE event_changes")
    conn.execute("DROP TABLE player_codes")  # (what 18 adds)
    conn.execute("DROP TABLE result_claims")  # (what 19 adds)
    conn.execute("ALTER TABLE club_boards DROP COLUMN floor_log")  # (what 20 adds)
    conn.execute("ALTER TABLE club_boards DROP COLUMN floor_seq")
    conn.execute("DROP TABLE board_heals")
    conn.execute("UPDATE schema_version SET version = 12")
    conn.execute("ALTER TABLE night_draw RENAME COLUMN table_name TO board")
    conn.execute("DROP TABLE night_boards")
    conn.execute("ALTER TABLE nights DROP COLUMN pairing_games")  # (what 15 adds)
    conn.execute("DROP TABLE tournaments")
    conn.execute("DROP TABLE playoff_results")
    conn.execute("DROP TABLE board_logs")  # (what 16 adds)
    conn.commit()
    conn.close()
    db = connection.read(str(path))
    assert db.value("SELECT version FROM schema_version") == store.migrations.SCHEMA_VERSION
    with pytest.raises(store.DbError, match="cannot be written here"):
        db.execute("DELETE FROM games")
    db.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.db"]
    monkeypatch.setattr(engine.os, "access", lambda _path, _mode: False)  # (root may write anything)
    db = connection.read(str(path))
    assert db.value("SELECT COUNT(*) FROM games") == 1
    db.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.db"]


def test_a_terminal_that_cannot_show_a_letter_gets_it_escaped_not_a_traceback(tmp_path):
    db = ["--db", str(tmp_path / "t.db")]
    names = ["Ánn", "Bøb", "Çy", "Dî", "Éd", "Flö", "Güs", "Hål"]
    assert cli("tournament", "new", *names, "--games", "2", *db).returncode == 0
    for args in (["--lang", "es", "tournament", "places"], ["--lang", "de", "tournament", "standings"]):
        done = cli(*args, *db, env={"PYTHONIOENCODING": "ascii"})
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert "\\xc1nn" in done.stdout, done.stdout  # Ánn, as the terminal can show her
    done = cli("--lang", "es", "tournament", "cut", *db, env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "le faltan 8 partidas" in done.stderr, done.stderr  # (click says it in its own way: no traceback)


def test_printing_into_a_folder_with_no_name_is_refused_and_writes_nothing(tmp_path):
    db = ["--db", str(tmp_path / "t.db")]
    assert cli("night", "new", "Ann", "Bob", *db).returncode == 0
    assert cli("tournament", "new", *["P%d" % n for n in range(8)], "--games", "2", *db).returncode == 0
    for command in ("night", "tournament"):
        done = cli(command, "print", "", *db, cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert "an empty name is no folder" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.db"]


def test_a_stream_of_bad_lines_is_said_a_few_at_a_time_and_endless_junk_is_stopped():
    done = cli("score", stdin="junk\n" * 30 + "5H 5D 5S JC 5C\n")
    assert done.returncode == 2
    assert done.stdout == "29\n", "the good line still counts"
    errors = done.stderr.splitlines()
    assert len(errors) == 11, done.stderr  # ten said one by one, then how many more
    assert errors[-1] == "cribboard: error: 20 more bad lines not shown"
    junk = cli("score", stdin="\x00\xff junk \x07\n" * 5000)  # random bytes on the way in: no end of it
    assert junk.returncode == 2
    assert junk.stderr.splitlines()[-2:] == [
        "cribboard: error: 90 more bad lines not shown",
        "cribboard: error: 100 lines in a row are no input: stopped at line 100",
    ], junk.stderr
