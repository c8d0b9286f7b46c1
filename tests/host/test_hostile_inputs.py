# Each command fed what a careless or hostile user gives it: bytes that are
# no UTF-8 in files, names and arguments; numbers too big, negative or no
# numbers; dates that do not exist; outputs that are closed or full; a
# setting that makes no sense. Each is refused with exit status 1 or 2 and
# one line on stderr, never a traceback; the club's database is left as it
# was, and no new database is made.
import hashlib
import os
import pty
import sqlite3
import subprocess
import sys

import pytest
from clirun import ENGLISH, cli
from deadline import COMMAND_S
from test_golden import evening

NOT_UTF8 = os.fsdecode(b"\xff\xfe")  # what the command line gets of bytes that are no text


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile")
    db = str(path / "club.db")
    evening(db, path)
    (path / "latin1.txt").write_bytes("café 45 12\n".encode("latin-1"))
    (path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    banana = sqlite3.connect(path / "banana.db")  # a database whose schema version is text
    banana.executescript(
        "CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES ('banana')"
    )
    banana.commit()
    banana.close()
    return path, db


def cases(path, db):
    """(arguments, stdin, environment, exit status)."""
    new = str(path / "new" / "made.db")  # a database no command here may make
    latin1 = str(path / "latin1.txt")
    port = str(path / "ttyACM9")  # no board there: every case fails before a port is opened
    return [
        (["players", "--port", port, NOT_UTF8, "Bob"], None, {}, 2),
        (["players", "rename", NOT_UTF8, "--player", "Ann", "--db", db], None, {}, 2),
        (["players", "rename", "Ann", "--track", "99999999999", "--game", "1", "--db", db], None, {}, 2),
        (["plot", "9" * 30, "-o", str(path / "c.png"), "--db", db], None, {}, 2),
        (["plot", "-5", "-o", str(path / "c.png"), "--db", db], None, {}, 2),
        (["plot", "\u0661", "-o", str(path / "c.png"), "--db", db], None, {}, 2),  # an Arabic-Indic 1: no game's number
        (["night", "card", "Ann\nBob", "--db", db], None, {}, 2),
        (["night", "result", "1", "Ann", "121", "Bob\x1b[2J", "90", "--db", db], None, {}, 2),
        (["plot", "1", "-o", "/dev/full", "--db", db], None, {}, 1),
        (["standings", "--since", "2026-13-45", "--db", db], None, {}, 2),
        (["standings", "--until", "99999-01-01", "--db", db], None, {}, 2),
        (["piquet", "sheet", latin1, "--db", new], None, {}, 2),
        (["piquet", "sheet", "--names", NOT_UTF8 + ",Bob", "--db", new], "", {}, 2),
        (["piquet", "show", "99999999999", "--db", db], None, {}, 2),
        (["barbu", "sheet", latin1, "--names", "A,B,C,D", "--db", new], None, {}, 2),
        (["barbu", "sheet", "--names", NOT_UTF8 + ",B,C,D", "--db", new], "", {}, 2),
        (["barbu", "sheet", "--names", "A,B,C,D", "--partners", "1+1,2+3", "--db", new], "", {}, 2),
        (["barbu", "show", "0", "--db", db], None, {}, 2),
        (["score", "6C", "7S", "8D", "8H", "99C"], None, {}, 2),
        (["score", *["5H"] * 1000], None, {}, 2),
        (["discard", "--players", "-3", "5H", "5S", "JD", "4C", "6H", "KH"], None, {}, 2),
        (["peg", "5H", "99X"], None, {}, 2),
        (["export", "--format", "xml", "--db", db], None, {}, 2),
        (["export", "-o", "/dev/full", "--db", db], None, {}, 1),
        (["matches", "--db", new], None, {}, 1),
        (["matches", "--db", "/dev/null"], None, {}, 1),  # (it suggested `cribboard sync` to make it one)
        (["matches", "--db", str(path / (NOT_UTF8 + ".db"))], None, {}, 1),
        (["matches", "--db", db], None, {"CRIBBOARD_DB_WAIT": "-1"}, 2),
        (["sync", "--port", "/dev/null", "--db", db], None, {}, 2),
        (["sync", "--port", port, "--db", db], None, {"CRIBBOARD_LINK_WAIT": "nan"}, 2),
        (["wifi", "--port", port, "--ssid", "club"], "short\n", {}, 2),
        (["wifi", "--port", port, "--ssid", NOT_UTF8 * 20], "a password\n", {}, 2),
        (["serve", "--http", "127.0.0.1:99999", "--db", db], None, {}, 2),
        (["sim", "--http", "nowhere", "--flash", str(path / "flash")], None, {}, 2),
        (["--lang", "xx", "matches", "--db", db], None, {}, 2),
        (["hardware", "check", str(path / "deep.json")], None, {}, 2),
        (["hardware", "check", "/dev/zero"], None, {}, 2),
        *(
            (args + ["--db", str(path / "banana.db")], "", {}, 1)
            for args in (
                ["matches"],
                ["stats"],
                ["standings"],
                ["night", "standings"],
                ["barbu", "list"],
                ["export"],
                ["piquet", "sheet", "--names", "Ann,Bob"],
                ["barbu", "sheet", "--names", "A,B,C,D"],
            )
        ),
    ]


def digest(db):
    return hashlib.sha256(open(db, "rb").read()).hexdigest()


def test_every_hostile_input_is_one_line_and_changes_nothing(club):
    path, db = club
    before = digest(db)
    for args, stdin, env, code in cases(path, db):
        done = cli(*args, stdin=stdin, env=env)
        lines = done.stderr.strip().splitlines()
        said, error = lines[:-1], lines[-1]  # (a slow command says what it begins: plot's chart)
        assert done.returncode == code and all(line.endswith("...") for line in said), (args, done.stderr)
        assert error.startswith("cribboard: error: ") and "Traceback" not in done.stderr, (args, done.stderr)
    for args in (
        ["matches", "--board", NOT_UTF8],
        ["head-to-head", NOT_UTF8, "Bob"],
        ["rejected", "--board", "\x1b[31m"],
    ):
        done = cli(*args, "--db", db)  # a search for what no board or player is called: nothing found
        assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stderr)
    assert digest(db) == before  # the club's database as it was
    assert not (path / "new").exists()
    assert not (path / "flash").exists()


@pytest.mark.parametrize("output", ["closed", "full"])
def test_a_command_whose_output_is_closed_or_full_fails_saying_so(club, output):
    _path, db = club
    before = digest(db)
    for args in (
        ["score", "6C", "7S", "8D", "8H", "9S"],
        ["matches", "--db", db],
        ["stats", "--json", "--db", db],
        ["export", "--db", db],
    ):
        redirect = ">&-" if output == "closed" else ">/dev/full"
        done = subprocess.run(
            ["sh", "-c", 'exec "$@" ' + redirect, "sh", sys.executable, "-m", "cribboard", *args],
            capture_output=True,
            text=True,
            timeout=COMMAND_S,
            env={**os.environ, **ENGLISH},
        )
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 1 and len(lines) == 1 and lines[0].startswith("cribboard: error: "), (args, done)
    assert digest(db) == before


def test_an_input_closed_or_endless_is_read_as_far_as_it_goes_and_said_in_one_line(club):
    """Started with stdin closed (`<&-`): read as empty. Fed /dev/zero: refused once no line has ended in
    16 MB, never held in memory; a layout that never ends is refused at a megabyte."""
    path, _db = club
    new = str(path / "new" / "made.db")

    def run(args, redirect):
        return subprocess.run(
            ["sh", "-c", 'exec "$@" ' + redirect, "sh", sys.executable, "-m", "cribboard", *args],
            capture_output=True,
            text=True,
            timeout=COMMAND_S,
            env={**os.environ, **ENGLISH},
        )

    for args in (["score"], ["discard", "--dealer"], ["score", "--crib"]):
        closed = run(args, "<&-")
        assert (closed.returncode, closed.stdout, closed.stderr) == (0, "", ""), (args, closed)
        endless = run(args, "</dev/zero")
        assert endless.returncode == 2 and "Traceback" not in endless.stderr, (args, endless.stderr[-500:])
        assert endless.stderr.strip().splitlines() == [
            "cribboard: error: line 1: no line ends in the first 16777216 characters: this is not lines of text "
            "(nothing more was read)"
        ], (args, endless.stderr[-500:])
    for args in (["piquet", "sheet", "--names", "Ann,Bob"], ["barbu", "sheet", "--names", "A,B,C,D"]):
        done = run([*args, "--db", new], "<&-")
        assert "Traceback" not in done.stderr and done.returncode in (0, 1), (args, done.stderr)
    assert "Traceback" not in run(["wifi", "--port", str(path / "ttyACM9"), "--ssid", "club"], "<&-").stderr


def test_ctrl_c_while_the_command_loads_ends_it_in_one_line(monkeypatch, capsys):
    import builtins

    from cribboard import __main__ as entry

    real_import = builtins.__import__

    def interrupted(name, *args, **kwargs):  # Ctrl-C as the command's modules load
        if name == "cribboard.cli":
            raise KeyboardInterrupt
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    with pytest.raises(SystemExit) as ended:
        entry.main()
    assert ended.value.code == 130
    assert capsys.readouterr().err == "\ncribboard: aborted\n"


def test_a_shell_with_no_runtime_folder_set_hears_no_warning(tmp_path):
    """XDG_RUNTIME_DIR unset (a root shell, a container): the simulated boards are looked for in the
    folder platformdirs takes instead, without its warning (two lines no user can act on)."""
    done = cli("sync", "--db", str(tmp_path / "synced.db"), env={"XDG_RUNTIME_DIR": "", "HOME": str(tmp_path)})
    assert "Warning" not in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_chart_to_dash_goes_to_the_standard_output_and_never_to_a_terminal(club, tmp_path):
    _path, db = club
    piped = subprocess.run(
        [sys.executable, "-m", "cribboard", "plot", "1", "-o", "-", "--db", db],
        capture_output=True,
        timeout=COMMAND_S,
        cwd=tmp_path,
        env={**os.environ, **ENGLISH},
    )
    assert piped.returncode == 0 and piped.stdout.startswith(b"\x89PNG\r\n"), piped.stderr
    assert not (tmp_path / "-").exists()  # (it once wrote a file named "-")
    leader, terminal = pty.openpty()
    try:
        shown = subprocess.run(
            [sys.executable, "-m", "cribboard", "plot", "1", "-o", "-", "--db", db],
            stdout=terminal,
            stderr=subprocess.PIPE,
            text=True,
            timeout=COMMAND_S,
            env={**os.environ, **ENGLISH},
        )
    finally:
        os.close(terminal)
        os.close(leader)
    assert shown.returncode == 1 and "not writing a binary file to a terminal" in shown.stderr, shown.stderr
    for args, why in (
        (["plot", "\u0661", "-o", str(tmp_path / "c.png")], "is not a whole number (the digits 0 to 9)"),
        (["night", "card", "Ann\nBob"], "'Ann\\nBob' is not a name: no control characters"),
        (["matches", "--db", "/dev/null"], "is not a file (a device or a pipe)"),
    ):
        assert why in cli(*args, *([] if "--db" in args else ["--db", db])).stderr, (args, why)
    said = cli("wifi", "--port", str(tmp_path / "ttyACM9"), "--ssid", NOT_UTF8, stdin="a password\n").stderr
    assert said.strip() == "cribboard: error: the network's name '\\udcff\\udcfe' is not UTF-8 text", said


def test_a_tables_cells_speak_the_readers_language_and_json_keeps_its_words(club):
    _path, db = club
    german = cli("--lang", "de", "stats", "--db", db).stdout
    assert "Punkte " in german and "points " not in german, german  # an entry's kind, in the cell
    assert "points" in cli("--lang", "de", "stats", "--json", "--db", db).stdout
