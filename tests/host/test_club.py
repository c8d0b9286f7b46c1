# The club's server (`cribboard serve`, cribboard.club): a paired board's
# signed games are stored once and answered with a signed acknowledgement;
# its live state reaches the page; anything else is refused with one log
# line and no change to the database. On SQLite and PostgreSQL, through a
# real server process on 127.0.0.1 (a Python client signs as a board does,
# with the board's own cribcore.signing); the rate limit with a fake clock.
import http.client
import json
import socket
import time
from datetime import datetime
from urllib.parse import urlsplit

import clubserver
import pytest
from clirun import cli
from clubserver import KEY
from deadline import WAIT_S
from test_records import good

from cribboard.club import protocol as club
from cribboard.club.protocol import board_headers
from cribboard.seating import Seating
from cribcore.clubwire import GAMES, LIVE, SIGNATURE
from cribcore.signing import signature


@pytest.fixture
def served(db_url):
    """A running `cribboard serve` on a database where board b0ard is paired: (url, db_url, its process)."""
    with clubserver.serving(db_url, "b0ard") as served:
        yield served


def send(url, path, body, counter, board="b0ard", key=KEY, headers=None, sign=True, source=None):
    """POST a report as a board does: (status, JSON answer, the answer's signature header, raw body);
    source: the loopback address it comes from (a board of its own on the club's WiFi), else 127.0.0.1."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    head = board_headers(key.encode(), path, board, counter, data)
    if not sign:
        del head[SIGNATURE]
    head.update(headers or {})
    where = urlsplit(url)
    conn = http.client.HTTPConnection(
        where.hostname, where.port, timeout=WAIT_S, source_address=None if source is None else (source, 0)
    )
    try:
        conn.request("POST", path, data, head)
        answer = conn.getresponse()
        raw = answer.read()
        said = json.loads(raw) if answer.getheader("Content-Type") == "application/json" else raw.decode()
        return answer.status, said, answer.getheader("X-Cribboard-Signature"), raw
    finally:
        conn.close()


def games_body(*seqs, loser=80):
    return {
        "fw": "1.0",
        "boot": 3,
        "ticks": 5000,
        "period": 1 << 30,
        "records": [[seq, json.dumps(good(seq, loser=loser + seq))] for seq in seqs],
    }


def stored(db_url):
    return [(r["board"], r["seq"]) for r in json.loads(cli("matches", "--db", db_url, "--json").stdout)]


def test_a_paired_boards_games_are_stored_once_and_acknowledged_with_a_signature(served):
    url, db_url, _proc = served
    status, answer, sig, raw = send(url, GAMES, games_body(1, 2), "3.1")
    assert status == 200
    assert answer == {"board": "b0ard", "counter": "3.1", "seq": 2, "apart": []}
    assert sig == signature(KEY.encode(), "ACK", GAMES, "b0ard", "3.1", raw)  # the club's word, for this request
    assert stored(db_url) == [("b0ard", 1), ("b0ard", 2)]
    status, answer, sig, raw = send(url, GAMES, games_body(1, 2), "3.1")  # the same request again: a replay
    assert status == 409
    assert answer["last"] == "3.1"
    assert stored(db_url) == [("b0ard", 1), ("b0ard", 2)]
    # The board's own request out of its turn is told, signed for that request, where its counter stands.
    assert sig == signature(KEY.encode(), "ACK", GAMES, "b0ard", "3.1", raw)
    status, answer, _sig, _raw = send(url, GAMES, games_body(2, 3), "3.2")  # a lost ack: sent again, with game 3
    assert status == 200
    assert answer["seq"] == 3
    assert stored(db_url) == [("b0ard", 1), ("b0ard", 2), ("b0ard", 3)]  # game 2 once
    status, answer, _sig, _raw = send(url, GAMES, games_body(4), "2.9")  # an earlier boot's counter: out of order
    assert status == 409
    assert answer["last"] == "3.2"
    boards = json.loads(cli("boards", "--db", db_url, "--json").stdout)
    assert [(b["board"], b["boot"], b["n"], b["games"]) for b in boards] == [("b0ard", 3, 2, 3)]
    assert "key" not in boards[0]  # never shown
    taken = datetime.fromisoformat(boards[0]["last_request_at"])  # when its last request was taken
    assert taken.tzinfo is not None
    assert taken > datetime.fromisoformat(boards[0]["paired_at"])
    assert boards[0]["last_request_at"] in cli("boards", "--db", db_url).stdout


def test_a_board_starts_a_few_new_logs_a_day_and_boards_counts_them(served):
    # A new log is a wipe or a replacement; a leaked key could start one a request, each another batch of
    # games in the database. Past club.NEW_LOGS in a day the board's games wait on it (429, said why).
    url, db_url, _proc = served
    logs = ["%016x" % n for n in range(1, club.NEW_LOGS + 2)]
    for n, log in enumerate(logs[:-1]):
        assert send(url, GAMES, dict(games_body(1, loser=60 + n), log=log), "1.%d" % (n + 1))[0] == 200
    status, answer, _sig, _raw = send(url, GAMES, dict(games_body(1, loser=50), log=logs[-1]), "1.9")
    assert status == 429
    assert "%d new logs in a day already" % club.NEW_LOGS in answer["error"]
    assert send(url, GAMES, dict(games_body(2), log=logs[0]), "1.9")[0] == 200  # a log it has: taken
    assert len(stored(db_url)) == club.NEW_LOGS + 1  # a game of each log, and the known log's second
    boards = json.loads(cli("boards", "--db", db_url, "--json").stdout)
    assert boards[0]["logs"] == club.NEW_LOGS
    assert "logs" in cli("boards", "--db", db_url).stdout  # the table's column


@pytest.mark.parametrize(
    "why, request_, status",
    [
        ("not a paired board", dict(board="nob0ard"), 403),
        ("bad signature", dict(key="00" * 16), 403),
        ("no signature (64 hex digits)", dict(sign=False), 403),
        ("no signature (64 hex digits)", dict(sign=False, headers={"X-Cribboard-Signature": "é" * 64}), 403),
        ("no usable counter (BOOT.N, each a whole number up to 1073741823)", dict(counter="x"), 400),
        ("no usable counter (BOOT.N, each a whole number up to 1073741823)", dict(counter="1073741824.1"), 400),
        ("no usable board id", dict(board="a/b"), 400),
    ],
)
def test_a_request_that_is_not_the_boards_is_refused_and_changes_nothing(served, why, request_, status):
    url, db_url, proc = served
    request_ = dict(request_)  # the parameters are shared by both engines' runs
    counter = request_.pop("counter", "1.1")
    assert send(url, GAMES, games_body(1), counter, **request_)[:2] == (status, {"error": why})
    assert stored(db_url) == []
    assert send(url, GAMES, games_body(1), "1.1")[0] == 200  # the counter was not taken by the refusal
    logged = [line for line in clubserver.stop(proc).splitlines() if "refused" in line]
    assert len(logged) == 1
    assert why in logged[0]


def test_bad_bodies_are_refused_and_a_bad_record_is_kept_apart_while_the_rest_are_stored(served):
    url, db_url, _proc = served
    assert send(url, GAMES, b"{not json", "1.1")[:2] == (400, {"error": "the body is not JSON"})
    assert send(url, GAMES, {"records": [[1, 2]]}, "1.1")[0] == 400
    assert send(url, GAMES, b"x" * (club.MAX_BODY + 1), "1.1")[0] == 413  # refused by its Content-Length: never read
    assert send(url, GAMES, b"x" * club.MAX_BODY, "1.1")[0] == 400  # 64 KB is not over 64 KB: read, not JSON
    assert send(url, GAMES, b"[" * 20_000, "1.1")[0] == 400  # nested 20,000 deep: no RecursionError
    assert stored(db_url) == []
    bad = games_body(1, 2, 3)
    bad["records"][1][1] = json.dumps(dict(good(2), scores=[121, 0]))  # a record whose events say otherwise
    status, answer, _sig, _raw = send(url, GAMES, bad, "1.1")
    assert status == 200
    assert answer["seq"] == 3
    assert answer["apart"] == [2]
    assert stored(db_url) == [("b0ard", 1), ("b0ard", 3)]
    kept = json.loads(cli("rejected", "--db", db_url, "--json").stdout)
    assert [(r["seq"], "scores [121, 0]" in r["reason"]) for r in kept] == [(2, True)]
    boards = json.loads(cli("boards", "--db", db_url, "--json").stdout)
    assert [(b["board"], b["games"], b["rejected"]) for b in boards] == [("b0ard", 2, 1)]
    assert "kept apart" in cli("boards", "--db", db_url).stdout  # the table's column


def test_a_revoked_board_is_refused(served):
    url, db_url, _proc = served
    assert cli("unpair", "b0ard", "--db", db_url).returncode == 0
    assert send(url, GAMES, games_body(1), "1.1")[:2] == (403, {"error": "its key was revoked"})
    again = cli("unpair", "b0ard", "--db", db_url)  # asked twice: done already, and said so
    assert again.returncode == 0 and "board b0ard was unpaired already, at 20" in again.stderr, again.stderr
    done = cli("unpair", "n0board", "--db", db_url)
    assert done.returncode == 2
    assert "no paired board n0board" in done.stderr
    assert stored(db_url) == []


def test_a_page_from_elsewhere_cannot_post_for_a_board(served):
    url, db_url, _proc = served
    status, _answer, _sig, _raw = send(url, GAMES, games_body(1), "1.1", headers={"Origin": "http://evil.example"})
    assert status == 403
    assert stored(db_url) == []


def test_a_boards_live_state_reaches_the_page(served):
    from rig import Table

    url, _db_url, _proc = served
    t = Table()
    t.enter(0, 7)
    state = json.loads(json.dumps(t.state()))
    status, answer, sig, raw = send(url, LIVE, {"state": state}, "1.1")
    assert status == 200
    assert answer == {"board": "b0ard", "counter": "1.1"}
    assert sig == signature(KEY.encode(), "ACK", LIVE, "b0ard", "1.1", raw)
    where = urlsplit(url)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=WAIT_S)
    conn.request("GET", "/api/state")
    boards = json.loads(conn.getresponse().read())["boards"]
    conn.request("GET", "/api/leds?board=0")
    leds = json.loads(conn.getresponse().read())["leds"]
    conn.close()
    assert [(b["board"], b["scores"]) for b in boards] == [("b0ard", [7, 0])]
    assert leds == [list(c) for c in t.strip.shown]  # what the board shows
    assert send(url, LIVE, {"state": {"nothing": 1}}, "1.2")[0] == 422


def test_a_board_is_held_to_its_rate(db_url):
    clubserver.pair(db_url, "b0ard")
    now = [0.0]
    server = club.Club(db_url, Seating(), clock=lambda: now[0])
    try:

        def post(n):
            data = json.dumps({"state": {}}).encode()
            counter = "1.%d" % n
            headers = board_headers(KEY.encode(), LIVE, "b0ard", counter, data)
            return server.answer_live(club.Report(LIVE, headers, data)).status

        statuses = [post(n) for n in range(1, club.BURST + 3)]
        assert statuses[: club.BURST] == [422] * club.BURST
        assert statuses[club.BURST :] == [429, 429]
        now[0] += 1.0  # a second later: RATE more
        assert [post(100 + n) for n in range(int(club.RATE) + 1)] == [422] * int(club.RATE) + [429]
    finally:
        server.close()


def test_the_pages_follower_survives_a_failure_it_did_not_expect(db_url):
    """The thread that reads the other servers' boards runs all season: an error it has no name for is
    said and the next poll goes on (before, anything but a DbError ended it, and the page fell behind)."""
    import threading

    clubserver.pair(db_url, "b0ard")
    server = club.Club(db_url, Seating())
    polls, again = [], threading.Event()

    def follow_once():
        polls.append(1)
        if len(polls) == 2:
            raise KeyError("a row the poll did not expect")
        if len(polls) >= 3:
            again.set()

    server.live.follow_once = follow_once  # (the first poll is follow()'s own, before the thread)
    try:
        server.follow()
        assert again.wait(WAIT_S), "the follower stopped after the failure"
    finally:
        server.close()


def test_two_servers_on_one_postgresql_behave_as_one(pg_cluster):
    from rig import Table

    db_url = pg_cluster.new_database()
    for board in ("b0ard", "b1ard"):
        clubserver.pair(db_url, board)
    (first, url1), (second, url2) = clubserver.start(db_url), clubserver.start(db_url)
    try:
        tables = {"b0ard": Table(), "b1ard": Table()}
        tables["b0ard"].enter(0, 7)
        tables["b1ard"].enter(1, 9)
        # Each board reaches a different server; each server's page shows both.
        for board, url, counter in (("b0ard", url1, "1.1"), ("b1ard", url2, "1.1")):
            state = json.loads(json.dumps(tables[board].state()))
            assert send(url, LIVE, {"state": state}, counter, board=board)[0] == 200
        for url in (url1, url2):

            def both(url=url):
                return sorted((b["board"], b["scores"]) for b in page_boards(url)) == [
                    ("b0ard", [7, 0]),
                    ("b1ard", [0, 9]),
                ]

            until(both)
        # The second draws the board the first took when its page asks (from the state, as the board shows).
        from cribboard.web import boardstate

        shown = boardstate.draw(json.loads(json.dumps(tables["b0ard"].state())))[1]
        at = [b["board"] for b in page_boards(url2)].index("b0ard")
        assert page_json(url2, "/api/leds?board=%d" % at)["leds"] == [list(c) for c in shown]
        # A request one server took is a replay at the other; games are stored once, whichever took them.
        assert send(url1, GAMES, games_body(1, 2), "1.2")[0] == 200
        status, answer, _sig, _raw = send(url2, GAMES, games_body(1, 2), "1.2")
        assert status == 409
        assert answer["last"] == "1.2"
        assert send(url2, GAMES, games_body(2, 3), "1.3")[0] == 200  # the lost answer's games, sent again
        assert stored(db_url) == [("b0ard", 1), ("b0ard", 2), ("b0ard", 3)]
        # A later state reached the first server: the second shows it, never an earlier one after it.
        tables["b1ard"].enter(1, 2)
        state = json.loads(json.dumps(tables["b1ard"].state()))
        assert send(url1, LIVE, {"state": state}, "1.2", board="b1ard")[0] == 200
        until(lambda: ("b1ard", [0, 11]) in [(b["board"], b["scores"]) for b in page_boards(url2)])
        # Paired again, its counter starts again: its states still reach every page.
        clubserver.pair(db_url, "b1ard")
        tables["b1ard"].enter(1, 3)
        state = json.loads(json.dumps(tables["b1ard"].state()))
        assert send(url1, LIVE, {"state": state}, "1.1", board="b1ard")[0] == 200
        until(lambda: ("b1ard", [0, 14]) in [(b["board"], b["scores"]) for b in page_boards(url2)])
    finally:
        clubserver.stop(first)
        clubserver.stop(second)


def page_json(url, path):
    where = urlsplit(url)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=WAIT_S)
    try:
        conn.request("GET", path)
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


def page_boards(url):
    return page_json(url, "/api/state")["boards"]


def until(check):
    """Wait on check() (a page polled: the other server reads the database every second) up to WAIT_S."""
    deadline = time.monotonic() + WAIT_S
    while not check():
        assert time.monotonic() < deadline, "not within %d s" % WAIT_S
        time.sleep(0.1)


def test_a_trusted_proxys_forwarded_address_is_the_one_charged_and_nobody_elses_is_believed(db_url):
    clubserver.pair(db_url, "b0ard")
    proc, url = clubserver.start(db_url, args=("--trusted-proxy", "127.0.0.1"))
    try:
        phone = {"X-Forwarded-For": "6.6.6.6, 10.9.9.9"}  # what the balancer says it forwarded for: the last
        statuses = [send(url, GAMES, games_body(1), "1.1", key="00" * 16, headers=phone)[0] for _ in range(60)]
        assert statuses[0] == 403
        assert statuses[-1] == 429
        other = {"X-Forwarded-For": "10.9.9.8"}
        assert send(url, GAMES, games_body(1), "1.1", key="00" * 16, headers=other)[0] == 403  # ...no one else's
    finally:
        said = clubserver.stop(proc)
    assert "from 10.9.9.9" in said
    assert "from 127.0.0.1" not in said
    proc, url = clubserver.start(db_url)  # no proxy named: a client's X-Forwarded-For is its own word, not believed
    try:
        for _ in range(60):
            send(url, GAMES, games_body(1), "1.1", key="00" * 16, headers={"X-Forwarded-For": "10.9.9.%d" % _})
    finally:
        said = clubserver.stop(proc)
    assert "from 127.0.0.1" in said
    assert "10.9.9." not in said.replace("X-Forwarded-For", "")


def test_serve_takes_only_an_address_for_a_trusted_proxy(db_url):
    done = cli("serve", "--db", db_url, "--trusted-proxy", "balancer.local")
    assert done.returncode == 2
    assert "--trusted-proxy is an IP address" in done.stderr


def test_a_head_request_is_answered_with_the_head_alone(served):
    url, _db_url, _proc = served
    where = urlsplit(url)
    for path in ("/", "/healthz", "/api/state"):
        answers = {}
        for method in ("GET", "HEAD"):  # HTTP/1.0: the server closes when its answer is all sent
            with socket.create_connection((where.hostname, where.port), timeout=WAIT_S) as sock:
                sock.sendall(
                    b"%s %s HTTP/1.0\r\nHost: %s\r\n\r\n" % (method.encode(), path.encode(), where.netloc.encode())
                )
                answers[method] = b"".join(iter(lambda: sock.recv(65536), b""))
        head, _sep, body = answers["GET"].partition(b"\r\n\r\n")
        assert answers["HEAD"].endswith(b"\r\n\r\n")
        assert body

        def lines(head):
            return [line for line in head.split(b"\r\n") if not line.startswith(b"Date:")]

        assert lines(answers["HEAD"][:-4]) == lines(head)  # ...and the same head (its length the body's)
