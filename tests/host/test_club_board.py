# A simulated Pico W (the firmware on MicroPython's unix port, its real
# sockets, rp2's WLAN as cribboard.mp.network has it) paired with a real
# `cribboard serve` by the real `cribboard wifi` and `cribboard pair`, on
# SQLite and PostgreSQL: a game confirmed on the board reaches the server's
# database and page by itself; games wait, in order, while the server or
# the WiFi is away; a USB sync at the same moment stores nothing twice.
import json
import sys
import time
import urllib.request

import clubserver
import pytest
from clirun import cli
from clubload import stored
from deadline import WAIT_S
from simboard import Board, fill_log

from cribboard import store


def wait_for(what, limit_s=WAIT_S):
    """Wait on the board's own process (its real time) until what() holds."""
    deadline = time.monotonic() + limit_s
    while not what():
        assert time.monotonic() < deadline, "not within %d s" % limit_s
        time.sleep(0.05)


def paired(board, url, db_url):
    """The board given the club's WiFi and paired, as a club does it; its id."""
    assert cli("wifi", "--port", board.port, "--ssid", "club", stdin="a password\n").returncode == 0
    done = cli("pair", "--port", board.port, "--server", url, "--db", db_url, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["board"]


@pytest.fixture
def club(db_url):
    store.connect(db_url).close()
    proc, url = clubserver.start(db_url)
    state = {"proc": proc, "url": url}
    yield state
    sys.stderr.write(clubserver.stop(state["proc"]))  # (the server's log: pytest shows it when the test fails)


def test_a_game_confirmed_on_the_board_reaches_the_server_by_itself(tmp_path, db_url, club):
    board = Board(tmp_path / "flash")
    try:
        ident = paired(board, club["url"], db_url)
        for secret in ("club.json", "wifi.json"):  # its key, the club's password: this user's alone
            assert (tmp_path / "flash" / secret).stat().st_mode & 0o077 == 0, secret
        board.play_a_game_to_61()  # confirmed: logged, and sent
        wait_for(lambda: stored(db_url) == [(ident, 1)])
        matches = json.loads(cli("matches", "--db", db_url, "--json").stdout)
        assert [(m["board"], m["scores"]) for m in matches] == [(ident, [61, 12])]
        with urllib.request.urlopen(club["url"] + "api/state", timeout=WAIT_S) as r:
            boards = json.loads(r.read())["boards"]
        assert [b["board"] for b in boards] == [ident]  # and the page shows the board
    finally:
        board.stop()


def test_games_played_while_the_server_and_the_wifi_are_away_arrive_in_order_once(tmp_path, db_url, club):
    fill_log(tmp_path / "flash", 4)
    board = Board(tmp_path / "flash")
    try:
        ident = paired(board, club["url"], db_url)
        wait_for(lambda: stored(db_url) == [(ident, n) for n in range(1, 5)])
        port = int(club["url"].rstrip("/").rsplit(":", 1)[1])
        clubserver.stop(club["proc"])  # the club's machine goes off, the board too...
        board.stop()
        fill_log(tmp_path / "flash", 3)  # ...three games are played on it later...
        board = Board(tmp_path / "flash", seed=False)
        board.sim.wifi(False)  # ...out of the WiFi's reach
        club["proc"], club["url"] = clubserver.start(db_url, port)  # the server is back where it was
        board.sim.wifi(True)
        wait_for(lambda: stored(db_url) == [(ident, n) for n in range(1, 8)])
        synced = json.loads(cli("sync", "--port", board.port, "--db", db_url, "--json").stdout)
        assert synced["new_games"] == 0  # a USB sync finds them all stored: one cursor
    finally:
        board.stop()


def test_a_club_restored_from_an_older_backup_gets_its_lost_games_back_from_the_board(tmp_path, db_url, club):
    """The club's machine dies after the last backup, and is restored from it: the board's next request (a
    press: its live state) is answered that the club lacks its games, and it sends them again by itself."""
    from datetime import datetime, timezone

    from cribboard.store import backup

    fill_log(tmp_path / "flash", 2)
    board = Board(tmp_path / "flash")
    try:
        ident = paired(board, club["url"], db_url)
        wait_for(lambda: stored(db_url) == [(ident, 1), (ident, 2)])
        older = backup.make(db_url, tmp_path / "backups", datetime.now(timezone.utc), create=True)
        board.play_a_game_to_61()
        wait_for(lambda: stored(db_url) == [(ident, n) for n in range(1, 4)])
        port = int(club["url"].rstrip("/").rsplit(":", 1)[1])
        clubserver.stop(club["proc"])  # the club's machine dies; a new one is given the last backup
        backup.restore(older.path, db_url, over=True)
        assert stored(db_url) == [(ident, 1), (ident, 2)]
        club["proc"], club["url"] = clubserver.start(db_url, port)
        board.enter("P1", 3)
        wait_for(lambda: stored(db_url) == [(ident, n) for n in range(1, 4)])
    finally:
        board.stop()
    said = club["proc"].said
    assert said.wait_for(lambda lines: any("is whole again: its record 3 is back" in line for line in lines))
    assert any("board %s is behind: the database lacks its record 3" % ident in line for line in said.lines)


def test_a_usb_sync_during_a_wifi_send_stores_each_game_once(tmp_path, db_url, club):
    """200 games waiting (a log holds that many and more): the WiFi sends
    them, and a laptop syncs the board by USB once the first have gone."""
    fill_log(tmp_path / "flash", 200)
    board = Board(tmp_path / "flash")
    try:
        ident = paired(board, club["url"], db_url)
        wait_for(lambda: stored(db_url))  # the WiFi's first batch is in...
        assert len(stored(db_url)) < 200
        synced = cli("sync", "--port", board.port, "--db", db_url, "--json")  # ...and a USB sync runs meanwhile
        assert synced.returncode == 0, synced.stderr
        wait_for(lambda: stored(db_url) == [(ident, n) for n in range(1, 201)])
        again = json.loads(cli("sync", "--port", board.port, "--db", db_url, "--json").stdout)
        assert again["new_games"] == 0
    finally:
        board.stop()


def test_a_board_moved_to_a_new_server_sends_it_the_games_it_sent_before_only_when_told(
    tmp_path, db_url, club, another_db_url
):
    fill_log(tmp_path / "flash", 3)
    board = Board(tmp_path / "flash")
    new_db = another_db_url
    store.connect(new_db).close()
    new_proc, new_url = clubserver.start(new_db)
    try:
        ident = paired(board, club["url"], db_url)
        wait_for(lambda: stored(db_url) == [(ident, n) for n in (1, 2, 3)])  # the old club has them
        moved = cli("pair", "--port", board.port, "--server", new_url, "--db", new_db, "--json")
        assert moved.returncode == 0
        assert json.loads(moved.stdout)["resent"] is False
        assert "--resend-all" in moved.stderr
        assert "up to number 3" in moved.stderr
        again = cli("pair", "--port", board.port, "--server", new_url, "--db", new_db, "--resend-all", "--json")
        assert again.returncode == 0 and json.loads(again.stdout)["resent"] is True, again.stderr
        wait_for(lambda: stored(new_db) == [(ident, n) for n in (1, 2, 3)])
        board.play_a_game_to_61()  # the next game goes to the new club only, once
        wait_for(lambda: stored(new_db) == [(ident, n) for n in (1, 2, 3, 4)])
        assert stored(db_url) == [(ident, n) for n in (1, 2, 3)]
        assert json.loads(cli("sync", "--port", board.port, "--db", new_db, "--json").stdout)["new_games"] == 0
    finally:
        board.stop()
        clubserver.stop(new_proc)


def test_a_club_night_seats_its_pair_at_the_board_with_the_servers_next_answer(tmp_path, db_url, club):
    board = Board(tmp_path / "flash")
    try:
        ident = paired(board, club["url"], db_url)
        done = cli("night", "new", "Ann", "Bob", "--rounds", "1", "--seed", "4", "--db", db_url, "--json")
        assert done.returncode == 0, done.stderr  # the club's paired boards are its tables
        (game,) = json.loads(done.stdout)
        assert game["board"] == ident

        def seated():  # a press and its undo send live states: the answer names the pair (signed)...
            board.press("P1")
            board.press("UNDO")
            return (board.sim.scoreboard() or {}).get("players") == [game["first"], game["second"]]

        wait_for(seated)
        view = board.sim.scoreboard()
        assert view["dealer"] == 0
        assert view["scores"] == [0, 0]
        for _ in range(4):  # the first track wins a game to 121 on the buttons (29 is the most one entry takes)
            board.enter("P1", 29)
        board.enter("P1", 5)
        board.press("OK")
        wait_for(lambda: stored(db_url) == [(ident, 1)])
    finally:
        board.stop()
    (filed,) = json.loads(cli("night", "round", "1", "--db", db_url, "--json").stdout)
    assert (filed["winner"], filed["scores"], filed["source"]) == (game["first"], [121, 0], "board")


def wipe(flash):
    """What a wiped flash keeps of a board: its id (the chip's) and the firmware; not its state, its games'
    log, its WiFi or its key."""
    for name in ("state.json", "games.log", "wifi.json", "club.json"):
        (flash / name).unlink(missing_ok=True)


def test_a_board_wiped_and_paired_again_has_its_new_games_stored_beside_the_old(tmp_path, db_url, club):
    board = Board(tmp_path / "flash")
    try:
        ident = paired(board, club["url"], db_url)
        board.play_a_game_to_61()
        wait_for(lambda: stored(db_url) == [(ident, 1)])
    finally:
        board.stop()
    wipe(tmp_path / "flash")  # the same board, its log made anew: numbering from 1 again
    board = Board(tmp_path / "flash")
    try:
        assert paired(board, club["url"], db_url) == ident
        board.play_a_game_to_61()
        wait_for(lambda: stored(db_url) == [(ident, 1), (ident, 1)])  # a new game, not taken for a resend
        conn = store.connect(db_url)
        try:
            logs = [r["log"] for r in conn.all("SELECT log FROM games ORDER BY id")]
            assert len(set(logs)) == 2
            assert "" not in logs
            assert not store.reports.rejected(conn)
        finally:
            conn.close()
        assert json.loads(cli("sync", "--port", board.port, "--db", db_url, "--json").stdout)["new_games"] == 0
    finally:
        board.stop()


def test_a_counter_a_leaked_key_pushed_to_the_top_is_mended_by_rotating_the_key(tmp_path, db_url, club):
    from test_club import send

    from cribcore.clubwire import COUNT_MAX, GAMES

    board = Board(tmp_path / "flash")
    try:
        ident = paired(board, club["url"], db_url)
        board.play_a_game_to_61()
        wait_for(lambda: stored(db_url) == [(ident, 1)])
        conn = store.connect(db_url)
        try:
            key = store.club.key_of(conn, ident)["key"].decode()
            game = conn.one("SELECT log, record FROM games")
        finally:
            conn.close()
        top = "%d.%d" % (COUNT_MAX, COUNT_MAX)  # the key leaked: a request signed at the top of the count...
        again = {"log": game["log"], "records": [[1, game["record"]]]}  # (game 1 sent again: nothing stored)
        assert send(club["url"], GAMES, again, top, board=ident, key=key)[0] == 200  # ...taken
        for points in (29, 29, 3):  # game 2, to 61 as the first (the menu's target stays): the board is told
            board.enter("P1", points)  # where the count stands, and has no counter after it
        board.press("OK")
        assert stored(db_url) == [(ident, 1)]
        rotated = cli("pair", "--port", board.port, "--server", club["url"], "--db", db_url, "--rotate", ident)
        assert rotated.returncode == 0, rotated.stderr
        wait_for(lambda: stored(db_url) == [(ident, 1), (ident, 2)])  # counted afresh with the new key, taken
    finally:
        board.stop()
