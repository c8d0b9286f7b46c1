# Joining a club, once, over USB, on the simulated board: `cribboard wifi`
# gives it the club's WiFi (the password asked for, never shown) and
# `cribboard pair` a fresh key that the club's database and the board hold
# and nothing else shows: not the output, not the --verbose log of the link,
# not `boards --json`, not the board's answers. A pairing proves itself
# against the running server before the board has the key: a server that
# is not there, not a club's, or on another database is said in one line,
# and the board and its old pairing are left as they were.
import http.server
import json
import shlex
import socket
import subprocess
import sys
import threading

import clubserver
import pytest
from clirun import cli

from cribboard import store


@pytest.fixture
def server(tmp_path):
    """A running `cribboard serve` on its own database: (its URL, the database)."""
    db = str(tmp_path / "club.sqlite3")
    store.connect(db).close()
    proc, url = clubserver.start(db)
    yield url, db
    clubserver.stop(proc)


def test_the_wifi_and_the_key_reach_the_board_and_nowhere_else(board, tmp_path, server):
    password = "s3cret club pass"
    done = cli("--verbose", "wifi", "--port", board.port, "--ssid", "ClubNet", stdin=password + "\n")
    assert done.returncode == 0, done.stderr
    assert password not in done.stdout + done.stderr
    assert "CONF (not shown)" in done.stderr
    assert json.loads((board.flash / "wifi.json").read_text()) == {"ssid": "ClubNet", "password": password}

    url, db = server
    done = cli("--verbose", "pair", "--port", board.port, "--server", url.rstrip("/"), "--db", db, "--json")
    assert done.returncode == 0, done.stderr
    paired = json.loads(done.stdout)
    assert paired["server"] == url
    kept = json.loads((board.flash / "club.json").read_text())
    conn = store.connect(db)
    key = store.club.key_of(conn, paired["board"])["key"]
    conn.close()
    assert kept == {"server": url, "key": key.decode()}
    assert len(key) == 32
    listed = cli("boards", "--db", db, "--json").stdout
    assert key.decode() not in done.stdout + done.stderr + listed
    assert json.loads(listed)[0]["board"] == paired["board"]
    again = cli("pair", "--port", board.port, "--server", url, "--db", db, "--json")
    assert again.returncode == 0
    assert json.loads((board.flash / "club.json").read_text())["key"] != key.decode()  # paired again: a new key
    state = cli("--verbose", "sync", "--port", board.port, "--db", str(tmp_path / "other.sqlite3"))
    assert password not in state.stdout + state.stderr
    assert key.decode() not in state.stderr


def test_a_bad_server_or_wifi_is_refused_and_nothing_kept(board, tmp_path):
    for server in ("ftp://x", "http://club.local:8121/", "http://10.0.0.5/"):  # a board looks up no names
        done = cli("pair", "--port", board.port, "--server", server, "--db", str(tmp_path / "c.sqlite3"))
        assert done.returncode == 2
        assert "http://ADDRESS:PORT/" in done.stderr
    kept = board.flash / "wifi.json"
    before = kept.read_bytes() if kept.exists() else None
    for ssid in ("x" * 33, "é" * 17, "a\tb"):  # 32 bytes at most, as a beacon carries the name
        done = cli("wifi", "--port", board.port, "--ssid", ssid, stdin="a password\n")
        assert done.returncode == 2 and "1 to 32 bytes" in done.stderr, (ssid, done.stderr)
    for password in ("short", "seven77", "x" * 64, "a" * 63 + "g", "pass\x00word", "passwörd", "x" * 64 + "0"):
        done = cli("wifi", "--port", board.port, "--ssid", "club", stdin=password + "\n")
        assert done.returncode == 2 and "8 to 63 printable ASCII characters" in done.stderr, (password, done.stderr)
    assert (kept.read_bytes() if kept.exists() else None) == before  # nothing kept
    for password, said in (
        ("8 chars!", "keeps the WiFi club\n"),
        ("~" * 63, "keeps the WiFi club\n"),
        ("0aF9" * 16, "keeps the WiFi club\n"),
        ("", "as an open network (no password)"),
    ):
        done = cli("wifi", "--port", board.port, "--ssid", "club", stdin=password + "\n")
        assert done.returncode == 0 and said in done.stderr, (password, done.stderr)
        assert json.loads(kept.read_text())["password"] == password


def paired_key(board):
    return json.loads((board.flash / "club.json").read_text())["key"] if (board.flash / "club.json").exists() else None


def test_a_pairing_that_the_server_would_not_take_says_why_and_leaves_the_board_as_it_was(board, tmp_path, server):
    url, db = server
    assert cli("pair", "--port", board.port, "--server", url, "--db", db).returncode == 0
    key = paired_key(board)
    closed = socket.create_server(("127.0.0.1", 0))
    down = "http://127.0.0.1:%d/" % closed.getsockname()[1]
    closed.close()  # nothing listens there now

    class NotAClub(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.send_response(404)
            self.end_headers()
            self.wfile.write(b"<html>a printer</html>")

        def log_message(self, *args):
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotAClub)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    elsewhere = "http://127.0.0.1:%d/" % other.server_address[1]
    store.connect(str(tmp_path / "other.sqlite3")).close()  # a cribboard database, but not the server's
    try:
        for where, given_db, why in (
            (down, db, "does not answer"),
            (elsewhere, db, "is not a club's server"),
            (url, str(tmp_path / "other.sqlite3"), "keeps its boards in another database"),
        ):
            done = cli("pair", "--port", board.port, "--server", where, "--db", given_db)
            assert done.returncode == 1 and why in done.stderr and done.stderr.count("\n") == 1, done.stderr
            assert "The board is as it was" in done.stderr
            assert paired_key(board) == key  # the board keeps the pairing that works
            conn = store.connect(db)
            assert (
                store.club.key_of(conn, json.loads(cli("boards", "--db", db, "--json").stdout)[0]["board"])["key"]
                == key.encode()
            )  # and so does the server's database
            conn.close()
        conn = store.connect(str(tmp_path / "other.sqlite3"))
        assert store.club.boards(conn) == []  # the key that went in there is gone again
        conn.close()
        done = cli("pair", "--port", board.port, "--server", url, "--db", str(tmp_path / "typo.sqlite3"))
        assert done.returncode == 1
        assert "there is no database at" in done.stderr
        assert not (tmp_path / "typo.sqlite3").exists()
    finally:
        other.shutdown()


def test_the_pairing_hint_serve_prints_works_as_printed_from_another_folder(board, tmp_path):
    db = tmp_path / "club db.sqlite3"  # a space: the hint quotes it
    proc = subprocess.Popen(
        [sys.executable, "-m", "cribboard", "serve", "--db", str(db), "--http", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        proc.stdout.readline()  # The club's server: URL
        hint = proc.stdout.readline().strip()
        command = hint.split(": ", 1)[1]
        assert command.startswith("cribboard pair --server http://127.0.0.1:")
        assert shlex.split(command)[-1] == str(db)
        other = tmp_path / "elsewhere"
        other.mkdir()
        done = cli(*shlex.split(command)[1:], "--port", board.port, cwd=other)
        assert done.returncode == 0, done.stderr
    finally:
        clubserver.stop(proc)
    conn = store.connect(str(db))
    assert len(store.club.boards(conn)) == 1
    conn.close()


def test_whether_to_send_the_games_again_is_asked_only_of_a_terminal_and_only_for_games_sent_before(monkeypatch):
    import click

    from cribboard.cli.club import _resend_wanted
    from cribboard.errors import UsageError

    asked = []
    monkeypatch.setattr(click, "confirm", lambda text, **kw: asked.append(text) or False)

    class Terminal:
        def isatty(self):
            return True

    assert _resend_wanted(None, 3, "b0ard", 4) is False
    assert asked == []
    monkeypatch.setattr(sys, "stdin", Terminal())
    assert _resend_wanted(None, 0, "b0ard", 4) is False
    assert asked == []
    assert _resend_wanted(None, 3, "b0ard", 4) is False
    assert "up to number 3" in asked[0]
    assert _resend_wanted(True, 3, "b0ard", 4) is True
    assert _resend_wanted(False, 3, "b0ard", 4) is False
    assert len(asked) == 1  # a flag is the answer
    assert _resend_wanted(None, 3, "b0ard", 3) is False
    assert len(asked) == 1
    with pytest.raises(UsageError, match="protocol 3"):
        _resend_wanted(True, 3, "b0ard", 3)


def test_the_hint_for_games_sent_before_is_one_the_boards_firmware_can_follow():
    from cribboard.cli.club import _resend_hint

    assert "`cribboard pair --resend-all` sends them" in _resend_hint("b0ard", 3, 4, False)
    older = _resend_hint("b0ard", 3, 3, False)  # protocol 3: no RESEND, so --resend-all would be refused
    assert "update it with `cribboard flash`, then `cribboard pair --resend-all`" in older
    assert _resend_hint("b0ard", 0, 4, False) is None
    assert _resend_hint("b0ard", 3, 4, True) is None
