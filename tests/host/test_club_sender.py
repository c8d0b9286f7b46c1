# The board's sender (cribclub.sender), run here on CPython with the board
# app's fake clock and flash but real sockets, against a real `cribboard
# serve` (SQLite and PostgreSQL): its games arrive once and in order, the
# cursor moves only on the club's signed word, and a connection cut at any
# byte of the request or of the answer loses nothing and stores nothing
# twice. (The same code on MicroPython's unix port, with the simulated Pico
# W's WLAN: test_club_board.py.)
import json
import select
import socket
import threading
import time

import clubserver
import pytest
from clubserver import KEY, Proxy, whole_request
from deadline import WAIT_S
from simboard import log_games

from cribapp.hostapi import HostApi
from cribapp.store import Store
from cribclub import sender as sender_module
from cribclub.sender import Sender
from cribcore.signing import signature

from rig import FakeFlash, Table

BOARD = "c0ffee0b0a4d"


class Joined:
    """A WLAN that is joined from the first ask (how the sender joins, loses and joins again is
    test_club_board.py's, on the simulated Pico W's WLAN)."""

    def active(self, on=None):
        return True

    def connect(self, ssid, key):
        pass

    def isconnected(self):
        return True


def board_with(games):
    flash = FakeFlash()
    store = Store(flash)
    store.load()
    log_games(store, games, BOARD)
    return Table(flash=flash, board_id=BOARD)


def sender_for(table, url):
    return Sender(
        HostApi(table.app),
        Joined(),
        socket,
        table.clock,
        {"ssid": "club", "password": ""},
        {"server": url, "key": KEY},
    )


def run(table, sender, want, limit_s=WAIT_S):
    """Poll the sender (the clock past any backoff) until want() holds; real sockets take real time."""
    deadline = time.monotonic() + limit_s
    while not want():
        assert time.monotonic() < deadline, "the sender did not get there"
        if not sender.busy():
            table.clock.advance(sender.waiting(table.clock.now))  # past the backoff
        table.clock.advance(1)
        sender.poll(table.clock.now)
        if sender.busy():
            select.select([], [], [], 0.0005)  # the socket's turn


def fails(table, sender):
    """Poll until the sender's next request fails."""
    failures = sender.failures
    run(table, sender, lambda: sender.failures > failures)


def logged(table):
    return [(seq, json.loads(text)) for seq, text in table.store.since(0, 1000)]


def records(db_url):
    from cribboard import store

    conn = store.connect(db_url)
    try:
        return [
            (r["seq"], json.loads(r["record"]))
            for r in conn.all("SELECT seq, record FROM games WHERE board = ? ORDER BY seq", (BOARD,))
        ]
    finally:
        conn.close()


def seqs(db_url):
    return [seq for seq, _record in records(db_url)]


@pytest.fixture
def served(db_url):
    with clubserver.serving(db_url, BOARD) as served:
        yield served


def test_games_go_in_order_once_and_the_cursor_moves_on_the_clubs_word(served):
    url, db_url, _proc = served
    table = board_with(7)
    s = sender_for(table, url)
    run(table, s, lambda: table.app.board.acked == 7)
    assert records(db_url) == logged(table)  # every game as the board logged it
    assert s.sent == 3
    assert s.failures == 0
    run(table, s, lambda: s.shown == table.app.version)  # then the live state
    table.enter(0, 5)  # a change: its live state goes out too
    run(table, s, lambda: s.shown == table.app.version)
    assert s.failures == 0
    s.close()  # new WiFi settings over USB: a sender started again, in the same boot...
    s = sender_for(table, url)
    table.enter(1, 4)
    run(table, s, lambda: s.shown == table.app.version)
    assert s.failures == 0  # ...goes on counting: the server took no counter twice


def test_a_board_whose_boot_count_went_back_is_told_where_its_counter_stands(served):
    """A state the board could not read starts its boot count again: its
    counters are then all before the last the club took. The club's signed
    409 says where that is, and the board goes on after it."""
    url, db_url, _proc = served
    table = board_with(2)
    table.app.board.boot = 40
    s = sender_for(table, url)
    run(table, s, lambda: table.app.board.acked == 2)
    s.close()
    sender_module._count[:] = [0, 0, None]  # a new power-up: the count starts again...
    table.app.board.boot = 1  # ...from a boot count gone back
    log_games(table.store, 1, BOARD)
    s = sender_for(table, url)
    run(table, s, lambda: table.app.board.acked == 3)
    assert s.failures == 1  # one request refused, then the board's counter is the club's last and on
    assert seqs(db_url) == [1, 2, 3]


def test_idle_passes_send_nothing(served):
    url, _db_url, _proc = served
    table = board_with(1)
    s = sender_for(table, url)
    run(table, s, lambda: table.app.board.acked == 1 and s.shown == table.app.version)
    sent = s.sent
    for _ in range(3000):  # 30 s of idle passes
        table.clock.advance(10)
        s.poll(table.clock.now)
    assert s.sent == sent
    assert not s.busy()


def test_a_server_that_is_down_is_tried_again_with_backoff_and_the_games_wait(served, db_url):
    _url, _db_url, _proc = served
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        nowhere = "http://127.0.0.1:%d/" % closed.getsockname()[1]
    table = board_with(2)
    s = sender_for(table, nowhere)
    waits = []
    for _ in range(8):
        fails(table, s)
        waits.append(s.waiting(table.clock.now))
    assert waits == [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]
    assert table.app.board.acked == 0
    s.close()
    s = sender_for(table, served[0])  # the club's server is back
    run(table, s, lambda: table.app.board.acked == 2)
    assert seqs(db_url) == [1, 2]


class OutOfReach(Joined):
    """A WLAN whose network is not there (yet): every join fails, until `there`."""

    there = False

    def isconnected(self):
        return self.there


def test_a_failed_join_is_tried_again_within_seconds_and_the_wifi_is_found_soon_after_it_is_up():
    table = board_with(1)
    wlan = OutOfReach()
    s = Sender(
        HostApi(table.app),
        wlan,
        socket,
        table.clock,
        {"ssid": "club", "password": ""},
        {"server": "http://127.0.0.1:9/", "key": KEY},
    )
    waits = []
    for _ in range(8):
        fails(table, s)  # a join not up in 20 s of the board's clock
        waits.append(s.waiting(table.clock.now))
    assert waits == [1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000]  # a join costs the club's server nothing
    wlan.there = True  # the club's router is switched on: the board's next join is at most 8 s away
    began = table.clock.now
    run(table, s, lambda: s.state == sender_module._READY)
    assert 8000 <= table.clock.ticks_diff(table.clock.now, began) <= 8000 + 1000  # then a join's first check


def test_a_connection_cut_at_any_byte_stores_the_game_once(served):
    """Cut at every byte of the request, then at every byte of the answer:
    until a whole answer is through, the board sends the game again; the
    server stores it once, from the first whole request it had."""
    url, db_url, _proc = served
    host, port = url[len("http://") :].rstrip("/").split(":")
    cutter = Proxy((host, int(port)))
    try:
        table = board_with(1)
        s = sender_for(table, cutter.url)
        up = 0
        while not cutter.request:  # cut after 0, 1, 2... bytes, up to a whole request passed on
            cutter.plan = (up, None)
            fails(table, s)
            if not cutter.request:
                assert seqs(db_url) == []  # nothing whole reached the server
            up += 1
        assert up == len(cutter.request) + 1
        assert table.app.board.acked == 0
        cutter.plan = (None, 0)  # the answer cut before its first byte: its length
        fails(table, s)
        assert seqs(db_url) == [1]
        for down in range(len(cutter.answer)):
            cutter.plan = (None, down)
            fails(table, s)
            assert table.app.board.acked == 0
        cutter.plan = (None, None)
        run(table, s, lambda: table.app.board.acked == 1)
        assert records(db_url) == logged(table)  # once, as logged
        assert len(cutter.request) > 1000
        assert len(cutter.answer) > 100
    finally:
        cutter.close()


def test_an_answer_not_the_clubs_moves_nothing():
    """A server (or anyone between) that answers without the key, for
    another board or request, or claims games the board never logged."""
    table = board_with(2)
    listener = socket.create_server(("127.0.0.1", 0))
    url = "http://127.0.0.1:%d/" % listener.getsockname()[1]
    s = sender_for(table, url)

    def forged(change):
        def answer(request):
            head = request.split(b"\r\n\r\n")[0].decode()
            fields = dict(line.split(": ", 1) for line in head.split("\r\n")[1:])
            said = {"board": fields["X-Cribboard-Board"], "counter": fields["X-Cribboard-Counter"], "seq": 2}
            key, board, counter = KEY.encode(), said["board"], said["counter"]
            said, key, board, counter = change(said, key, board, counter)
            body = json.dumps(said).encode()
            sig = signature(key, "ACK", "/board/v1/games", board, counter, body)
            return (
                b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\nX-Cribboard-Signature: %s\r\n\r\n"
                % (len(body), sig.encode())
            ) + body

        return answer

    cases = [
        lambda said, key, board, counter: (said, b"k" * 16, board, counter),  # signed with another key
        lambda said, key, board, counter: (dict(said, board="other"), key, "other", counter),  # another board's
        lambda said, key, board, counter: (dict(said, counter="1.999"), key, board, "1.999"),  # another request's
        lambda said, key, board, counter: (dict(said, seq=9), key, board, counter),  # games never logged
        lambda said, key, board, counter: (dict(said, seq="2"), key, board, counter),  # not a number
    ]
    try:
        for change in cases:
            answer = forged(change)
            thread = threading.Thread(target=_answer_once, args=(listener, answer))
            thread.start()
            fails(table, s)
            thread.join(WAIT_S)
            assert table.app.board.acked == 0
        thread = threading.Thread(target=_answer_once, args=(listener, forged(lambda *a: a)))
        thread.start()
        run(table, s, lambda: table.app.board.acked == 2)  # the club's own word
        thread.join(WAIT_S)
    finally:
        listener.close()


def _request(board):
    """A whole request from the board's connection (kept open)."""
    board.settimeout(WAIT_S)
    request = b""
    while not whole_request(request):
        got = board.recv(4096)
        if not got:
            break
        request += got
    return request


def _answer_once(listener, answer):
    board, _addr = listener.accept()
    with board:
        board.sendall(answer(_request(board)))


def test_an_unanswered_request_is_given_up_and_sent_again(served):
    url, db_url, _proc = served
    table = board_with(1)
    listener = socket.create_server(("127.0.0.1", 0))  # takes the request, never answers
    heard = []
    thread = threading.Thread(target=lambda: heard.append(_request(listener.accept()[0])))
    thread.start()
    try:
        s = sender_for(table, "http://127.0.0.1:%d/" % listener.getsockname()[1])
        run(table, s, lambda: heard)
        thread.join(WAIT_S)
        table.clock.advance(10000)  # the request's time is up
        s.poll(table.clock.now)
        assert s.failures == 1
        assert not s.busy()
        assert table.app.board.acked == 0
        s.close()
        s = sender_for(table, url)
        run(table, s, lambda: table.app.board.acked == 1)
        assert seqs(db_url) == [1]
    finally:
        listener.close()


def test_a_club_restored_from_an_older_backup_is_sent_again_what_it_lost(db_url, tmp_path):
    """The club's database restored from a backup older than the games the board was told were stored: the
    board's next request, a live state or a new game, is answered "resend", and the board sends what the club
    lost by itself, each game once (issue 71)."""
    from datetime import datetime, timezone

    from cribboard import store
    from cribboard.store import backup

    clubserver.pair(db_url, BOARD)
    table = board_with(4)
    proc, url = clubserver.start(db_url)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    s = sender_for(table, url)
    try:
        run(table, s, lambda: table.app.board.acked == 4)
        older = backup.make(db_url, tmp_path / "backups", datetime.now(timezone.utc), create=True)
        log_games(table.store, 5, BOARD)
        run(table, s, lambda: table.app.board.acked == 9)
    finally:
        clubserver.stop(proc)
    for then in ("a live state", "a new game"):  # (the board's next request, either way)
        backup.restore(older.path, db_url, over=True)
        assert seqs(db_url) == [1, 2, 3, 4]
        proc, url = clubserver.start(db_url, port)  # the machine rebuilt: its address the boards post to
        try:
            if then == "a live state":
                table.enter(0, 5)
            else:
                log_games(table.store, 1, BOARD)
            last = table.store.last_seq
            run(table, s, lambda last=last: seqs(db_url) == list(range(1, last + 1)) and table.app.board.acked == last)
            run(table, s, lambda: s.shown == table.app.version)
        finally:
            err = clubserver.stop(proc)
        assert records(db_url) == logged(table), then  # each game as the board logged it, once
        conn = store.connect(db_url)
        try:
            (row,) = store.club.boards(conn)  # what `cribboard boards` shows the director
        finally:
            conn.close()
        assert (row["sent_again"], row["behind_since"]) == (5, None), row
        assert "board %s is behind: the database lacks its record %d" % (BOARD, last - (then == "a new game")) in err
        assert "board %s is whole again: its records 5-9 are back" % BOARD in err, err


def test_a_board_paired_without_its_old_games_is_never_asked_for_them(db_url):
    """A board paired here after it sent games elsewhere (pair without --resend-all): its cursor is past games
    this club never held, and no report of it brings them (the pairing's floor)."""
    from cribboard import store

    table = board_with(3)
    table.app.board.acked = 3  # (sent to another server, or by USB)
    db = store.connect(db_url)
    store.club.pair(db, BOARD, KEY.encode(), "2001-11-30T00:00:00+00:00", (table.store.log_id, 3))
    db.close()
    log_games(table.store, 2, BOARD)
    proc, url = clubserver.start(db_url)
    s = sender_for(table, url)
    try:
        run(table, s, lambda: table.app.board.acked == 5)
        table.enter(0, 5)
        run(table, s, lambda: s.shown == table.app.version)
    finally:
        err = clubserver.stop(proc)
    assert seqs(db_url) == [4, 5]
    assert "behind" not in err, err
