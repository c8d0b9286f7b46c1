# Joining a club, once, over USB, on the simulated board: `cribboard wifi`
# gives it the club's WiFi (the password asked for, never shown) and
# `cribboard pair` a fresh key that the club's database and the board hold
# and nothing else shows: not the output, not the --verbose log of the link,
# not `boards --json`, not the board's answers.
import json

from clirun import cli

from cribboard import store


def test_the_wifi_and_the_key_reach_the_board_and_nowhere_else(board, tmp_path):
    password = "s3cret club pass"
    done = cli("--verbose", "wifi", "--port", board.port, "--ssid", "ClubNet", stdin=password + "\n")
    assert done.returncode == 0, done.stderr
    assert password not in done.stdout + done.stderr and "CONF (not shown)" in done.stderr
    assert json.loads((board.flash / "wifi.json").read_text()) == {"ssid": "ClubNet", "password": password}

    db = str(tmp_path / "club.sqlite3")
    done = cli("--verbose", "pair", "--port", board.port, "--server", "http://10.0.0.2:8121", "--db", db, "--json")
    assert done.returncode == 0, done.stderr
    paired = json.loads(done.stdout)
    assert paired["server"] == "http://10.0.0.2:8121/"
    kept = json.loads((board.flash / "club.json").read_text())
    conn = store.connect(db)
    key = store.club.key_of(conn, paired["board"])["key"]
    conn.close()
    assert kept == {"server": "http://10.0.0.2:8121/", "key": key} and len(key) == 32  # 128 bits
    listed = cli("boards", "--db", db, "--json").stdout
    assert key not in done.stdout + done.stderr + listed and json.loads(listed)[0]["board"] == paired["board"]
    again = cli("pair", "--port", board.port, "--server", "http://10.0.0.2:8121/", "--db", db, "--json")
    assert again.returncode == 0
    assert json.loads((board.flash / "club.json").read_text())["key"] != key  # paired again: a new key
    state = cli("--verbose", "sync", "--port", board.port, "--db", str(tmp_path / "other.sqlite3"))
    assert password not in state.stdout + state.stderr and key not in state.stderr


def test_a_bad_server_or_wifi_is_refused_and_nothing_kept(board, tmp_path):
    for server in ("ftp://x", "http://club.local:8121/", "http://10.0.0.5/"):  # a board looks up no names
        done = cli("pair", "--port", board.port, "--server", server, "--db", str(tmp_path / "c.sqlite3"))
        assert done.returncode == 2 and "http://ADDRESS:PORT/" in done.stderr
    done = cli("wifi", "--port", board.port, "--ssid", "x" * 40, stdin="pw\n")
    assert done.returncode == 2 and "ssid is 1 to 32 characters" in done.stderr
