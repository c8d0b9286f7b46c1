# The club's server with a hall in it (issue 67): phones and browsers that
# keep their connections open, pages that watch the live stream, a venue's
# NAT that puts every board and phone behind one address, a proxy in front.
# Each of these shut the boards out of the server before it held its
# connections on an event loop: 80 kept-alive viewers left boards 82
# answers of 584 and no game stored; 8 clients from one address silenced
# every board behind it. Here every board's request must be answered and
# every game stored, whatever the viewers hold.
import json
import socket
import threading

import clubserver
from deadline import WAIT_S
from test_club import GAMES, LIVE, games_body, send, stored
from test_club_service import address, connect, ended

from cribboard.club.service import started

VIEWERS = 200  # connections held open beside the boards (the 64 places of the server before were all taken)
BOARDS = 10


def keep_alive_get(sock, where, path):
    """One GET on a kept-alive connection: its status and body (the connection stays open)."""
    sock.sendall(b"GET %s HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (path.encode(), where[0].encode(), where[1]))
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _sep, body = data.partition(b"\r\n\r\n")
    size = int(next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")).split(b":")[1])
    while len(body) < size:
        body += sock.recv(65536)
    return int(head.split()[1]), json.loads(body)


def first_event(sock, where, path):
    """Open a live stream; its first data (the stream stays open)."""
    sock.sendall(b"GET %s HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (path.encode(), where[0].encode(), where[1]))
    data = b""
    while b"data: " not in data or b"\n\n" not in data[data.index(b"data: ") :]:  # (in a chunk of its own)
        got = sock.recv(65536)
        assert got, data
        data += got
    assert data.startswith(b"HTTP/1.1 200 ")
    assert b"content-type: text/event-stream" in data.lower()
    return json.loads(data[data.index(b"data: ") + 6 :].split(b"\n")[0])


def test_viewers_holding_kept_alive_connections_and_live_streams_shut_no_board_out(tmp_path):
    with clubserver.serving(str(tmp_path / "club.db"), "b0ard") as (url, db_url, proc):
        where = address(url)
        viewers = [connect(where, "127.0.7.%d" % (n % 50 + 1)) for n in range(VIEWERS)]
        for n, sock in enumerate(viewers):  # half poll the projector's JSON on one connection, half watch it
            if n % 2:
                assert keep_alive_get(sock, where, "/api/night") == (200, {"night": None})
            else:
                assert first_event(sock, where, "/api/night/events") == {"night": None}
        from rig import Table

        table = Table()
        for n in range(1, 4):  # a board's games and live state: answered, stored
            assert send(url, GAMES, games_body(n), "1.%d" % (2 * n), source="127.0.7.200")[0] == 200
            table.enter(0, n)
            state = json.loads(json.dumps(table.state()))
            assert send(url, LIVE, {"state": state}, "1.%d" % (2 * n + 1), source="127.0.7.200")[0] == 200
        for n, sock in enumerate(viewers):  # and the viewers are all still served
            if n % 2:
                assert keep_alive_get(sock, where, "/api/night")[0] == 200
        for sock in viewers:
            sock.close()
        assert stored(db_url) == [("b0ard", n) for n in (1, 2, 3)]
        log = clubserver.stop(proc)
    assert "Traceback" not in log


def test_boards_and_phones_behind_one_address_are_all_answered(tmp_path):
    # A venue's router: every board and every phone has the one address. Phones hold kept-alive connections
    # open (8 of them silenced every board behind the address before); ten boards report at once.
    db_url = str(tmp_path / "club.db")
    boards = ["b%04d" % i for i in range(BOARDS)]
    for board in boards:
        clubserver.pair(db_url, board)
    proc, url = clubserver.start(db_url)
    try:
        where = address(url)
        phones = [connect(where, "127.0.8.1") for _ in range(64)]
        for sock in phones:
            assert keep_alive_get(sock, where, "/api/state")[0] == 200
        answers = []

        def board_reports(board):
            for n in range(1, 4):
                answers.append(send(url, GAMES, games_body(n), "1.%d" % n, board=board, source="127.0.8.1")[0])

        threads = [threading.Thread(target=board_reports, args=(b,)) for b in boards]
        for t in threads:
            t.start()
        for t in threads:
            t.join(WAIT_S)
        assert answers == [200] * (3 * BOARDS)
        for sock in phones:
            sock.close()
        assert sorted(stored(db_url)) == [(b, n) for b in boards for n in (1, 2, 3)]
    finally:
        log = clubserver.stop(proc)
    assert "Traceback" not in log


def test_a_trusted_proxys_forwarded_address_must_be_an_ip_address(tmp_path):
    db_url = str(tmp_path / "club.db")
    clubserver.pair(db_url, "b0ard")
    service = started(db_url, "127.0.0.1", 0, "127.0.0.1")
    try:
        url = "http://%s:%d/" % service.server.server_address
        for garbage in ("garbage", "10.0.0.1, x" * 1000, "1.2.3.4.5", ""):
            status, answer, _sig, _raw = send(url, GAMES, games_body(1), "1.1", headers={"X-Forwarded-For": garbage})
            assert status == 400, garbage[:40]
            assert "X-Forwarded-For" in answer["error"]
        # A good one: the last address it names is the board's (a chain of proxies names the client first).
        status, _answer, _sig, _raw = send(
            url, GAMES, games_body(1), "1.1", headers={"X-Forwarded-For": "10.9.8.7, 10.1.2.3"}
        )
        assert status == 200
        seen = []
        service.club.refused_here = lambda peer, *rest: seen.append(peer)  # (who a refusal is counted against)
        send(url, "/board/v1/nothing", games_body(2), "1.2", headers={"X-Forwarded-For": "::1, 10.1.2.3"})
        assert seen == ["10.1.2.3"]
        assert stored(db_url) == [("b0ard", 1)]
    finally:
        service.server.shutdown()
        service.close()


def test_a_client_other_than_the_trusted_proxy_cannot_name_its_address(tmp_path):
    db_url = str(tmp_path / "club.db")
    clubserver.pair(db_url, "b0ard")
    service = started(db_url, "127.0.0.1", 0, "127.0.0.9")  # (the proxy is elsewhere)
    try:
        url = "http://%s:%d/" % service.server.server_address
        seen = []
        service.club.refused_here = lambda peer, *rest: seen.append(peer)
        send(url, "/board/v1/nothing", games_body(2), "1.2", headers={"X-Forwarded-For": "10.1.2.3"})
        assert seen == ["127.0.0.1"]
    finally:
        service.server.shutdown()
        service.close()


def test_the_server_stops_promptly_with_live_streams_open(tmp_path):
    proc, url = clubserver.start(str(tmp_path / "club.db"))
    where = address(url)
    streams = [socket.create_connection(where, timeout=WAIT_S) for _ in range(20)]
    try:
        for sock in streams:
            assert first_event(sock, where, "/api/night/events") == {"night": None}
        log = clubserver.stop(proc)  # (within WAIT_S of SIGTERM, exit status 0)
        assert all(ended(sock) for sock in streams)  # each stream ended, its connection closed
    finally:
        for sock in streams:
            sock.close()
    assert "Traceback" not in log


def test_a_client_that_sends_requests_far_ahead_of_their_answers_is_cut_off(tmp_path):
    # Each request waiting on a connection is a dozen objects the server holds (64 clients sending 200 each
    # made every full pass of Python's collector stop the server's threads for 120 ms): PIPELINED waiting
    # behind the one answered are served, one more and the connection is cut off, however fast it reads.
    from cribboard.club import places

    db_url = str(tmp_path / "club.db")
    clubserver.pair(db_url, "b0ard")  # (a club's database)
    service = started(db_url, "127.0.0.1", 0, None)
    try:
        service.server.places.write_s = 10 * WAIT_S  # (no unread answer's deadline comes into it)
        where = service.server.server_address
        get = b"GET /api/state HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (where[0].encode(), where[1])
        polite = connect(where, "127.0.9.1")
        polite.sendall(get * (places.PIPELINED + 1))  # one answered, PIPELINED waiting: all answered
        answers = b""
        while answers.count(b"HTTP/1.1 200 ") < places.PIPELINED + 1:
            got = polite.recv(65536)
            assert got, answers
            answers += got
        assert service.server.places.cut_off == 0
        greedy = connect(where, "127.0.9.1")
        greedy.sendall(get * (places.PIPELINED + 2))
        assert ended(greedy)  # (by the pipeline's bound: the answers' deadline is far off)
        assert service.server.places.cut_off == 1
        polite.sendall(get)  # the polite one goes on
        assert polite.recv(65536).startswith(b"HTTP/1.1 200 ")
        for sock in (polite, greedy):
            sock.close()
    finally:
        service.server.shutdown()
        service.close()
