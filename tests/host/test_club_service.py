# The club's server as a club leaves it running all season (a real `cribboard
# serve` process): a port that is taken is an error, a health check that
# asks the database, PostgreSQL restarting under a board's traffic, a SQLite
# file another program holds, and clients that drip, bloat or idle.
import http.client
import json
import logging
import signal
import socket
import sqlite3
import subprocess
import threading
import time

import clubserver
import pytest
from clirun import cli, headless_sim, one_line_error
from deadline import COMMAND_S, WAIT_S
from pgserver import Cluster
from test_club import GAMES, LIVE, games_body, send, stored

from cribboard import store
from cribboard.club import places
from cribboard.club import server as club_server


def get(url, path):
    """(status, JSON answer, headers) of a GET."""
    host, port = url[len("http://") :].rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=WAIT_S)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read()), answer.headers  # (names in any case)
    finally:
        conn.close()


def test_serve_refuses_a_port_that_is_taken_and_only_sim_moves_saying_so(tmp_path):
    taken = socket.create_server(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    try:
        done = cli("serve", "--db", str(tmp_path / "club.db"), "--http", "127.0.0.1:%d" % port)
        assert done.returncode == 1
        assert done.stdout == ""
        assert (
            done.stderr.strip().splitlines()[-1].startswith("cribboard: error: cannot serve on 127.0.0.1:%d: " % port)
        )
        sim = subprocess.Popen(
            headless_sim(tmp_path / "flash", http="127.0.0.1:%d" % port),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            url = json.loads(sim.stdout.readline())["url"]
            assert not url.endswith(":%d/" % port)
        finally:
            sim.terminate()
            _out, err = sim.communicate(timeout=WAIT_S)
        assert "port %d is taken" % port in err
    finally:
        taken.close()
    from cribboard.cli import board, club

    defaults = {c.name: next(p.default for p in c.params if p.name == "http_addr") for c in (board.sim, club.serve)}
    assert defaults["sim"].split(":")[1] != defaults["serve"].split(":")[1]


def test_a_postgresql_restart_under_a_boards_traffic_is_a_503_then_served_again(tmp_path):
    with Cluster() as cluster:
        db_url = cluster.new_database()
        with clubserver.serving(db_url, "b0ard") as (url, _db, proc):
            assert get(url, "/healthz")[:2] == (200, {"ok": True})
            assert send(url, GAMES, games_body(1, 2), "1.1")[0] == 200
            cluster.stop_server()  # every connection the server held is cut
            status, answer, _sig, _raw = send(url, GAMES, games_body(3), "1.2")
            assert status == 503
            assert "database" in answer["error"]
            health = get(url, "/healthz")
            assert health[0] == 503
            assert health[2]["Retry-After"] == "5"
            assert get(url, "/api/state")[0] == 200  # the page still answers
            cluster.start_server()
            status, answer, _sig, _raw = send(url, GAMES, games_body(3), "1.3")  # the board's next try
            assert status == 200
            assert answer["seq"] == 3
            assert get(url, "/healthz")[0] == 200
            log = clubserver.stop(proc)
        assert stored(db_url) == [("b0ard", 1), ("b0ard", 2), ("b0ard", 3)]  # each once
    assert "Traceback" not in log
    assert log.count("answered 503") == 1


def test_serve_refuses_a_database_it_cannot_write_before_it_says_it_is_up(tmp_path, pg_cluster):
    import psycopg

    db_url = pg_cluster.new_database()
    store.connect(db_url).close()
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:  # as a replica, or a database set so
        conn.execute("ALTER DATABASE %s SET default_transaction_read_only = on" % db_url.split("@/")[1].split("?")[0])
    cases = [(db_url, "read-only transaction")]
    path = tmp_path / "club.db"
    store.connect(str(path)).close()
    immutable = subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode == 0  # (root writes
    if immutable:  # any file a mode forbids; an immutable one, as on a read-only mount, not)
        cases.append((str(path), "cannot be written here"))
    try:
        for url, why in cases:
            done = cli("serve", "--db", url, "--http", "127.0.0.1:0", "--json", timeout=COMMAND_S)
            line = one_line_error(done)
            assert why in line and "stores the boards' games" in line and done.stdout == "", (url, line)
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_busy_sqlite_file_is_a_503_with_retry_after_and_holds_nothing_else_up(tmp_path):
    db_url = str(tmp_path / "club.db")
    clubserver.pair(db_url, "b1ard")
    with clubserver.serving(db_url, "b0ard") as (url, _db, proc):
        other = sqlite3.connect(db_url, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program writing, and not letting go
        try:
            answers = {}

            def board(name, counter):
                answers[name] = send(url, GAMES, games_body(1), counter, board=name)[:2]

            waiting = [threading.Thread(target=board, args=(name, "1.1")) for name in ("b0ard", "b1ard")]
            for t in waiting:
                t.start()
            assert get(url, "/api/state")[0] == 200
            assert get(url, "/healthz")[0] == 200
            for t in waiting:
                t.join(WAIT_S)
            assert [answers[name][0] for name in ("b0ard", "b1ard")] == [503, 503]
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert send(url, GAMES, games_body(1), "1.2")[0] == 200  # let go: the next try is stored
        log = clubserver.stop(proc)
    assert stored(db_url) == [("b0ard", 1)]
    assert "Traceback" not in log


def test_a_client_that_drips_bloats_or_idles_is_cut_off_and_boards_are_still_served(tmp_path):
    with clubserver.serving(str(tmp_path / "club.db"), "b0ard") as (url, _db, proc):
        where = address(url)
        # (from a few addresses, as on the club's WiFi: idle connections cost memory, and hold no board up)
        idle = [
            socket.create_connection(where, timeout=WAIT_S, source_address=("127.0.1.%d" % (n // 8 + 1), 0))
            for n in range(40)
        ]
        drip = socket.create_connection(where, timeout=WAIT_S, source_address=("127.0.2.1", 0))
        head = b"POST /board/v1/live HTTP/1.1\r\nHost: %s:%d\r\n" % (where[0].encode(), where[1])
        began = time.monotonic()
        cut = False
        while not cut and time.monotonic() - began < WAIT_S:
            try:  # a byte a second: each read is quick, the request never ends
                drip.send(head[:1] if head else b"X")
                head = head[1:]
                drip.settimeout(1.0)
                cut = drip.recv(1024) == b""
            except TimeoutError:
                continue
            except OSError:
                cut = True
        assert cut  # one deadline for the whole head (club.places.REQUEST_S), not one a read
        bloated = socket.create_connection(where, timeout=WAIT_S, source_address=("127.0.2.2", 0))
        bloated.sendall(
            b"GET / HTTP/1.1\r\nHost: %s:%d\r\n" % (where[0].encode(), where[1])
            + b"X-Pad: "
            + b"a" * (places.HEADERS_MAX + 1)
            + b"\r\n\r\n"
        )
        assert bloated.recv(64).startswith((b"HTTP/1.0 431", b"HTTP/1.1 431"))  # (read once)
        status, _answer, _sig, _raw = send(url, GAMES, games_body(1), "1.1")
        assert status == 200  # the idle ones hold no board up
        for s in idle + [drip, bloated]:
            s.close()
        log = clubserver.stop(proc)
    assert "Traceback" not in log


@pytest.mark.parametrize("path", [GAMES, LIVE])
def test_a_page_cannot_post_and_a_get_is_never_a_report(tmp_path, path):
    with clubserver.serving(str(tmp_path / "club.db"), "b0ard") as (url, db_url, _proc):
        for headers in (
            {"Origin": "http://evil.example"},
            {"Sec-Fetch-Site": "cross-site"},
            {"Content-Type": "text/plain"},
        ):
            assert send(url, path, games_body(1), "1.1", headers=headers)[0] == 403
        assert get(url, path)[0] == 405  # a report is a POST: a GET is never one
        assert stored(db_url) == []


def test_sigusr2_has_serve_say_what_each_thread_is_doing_and_serve_on(tmp_path):
    proc, url = clubserver.start(str(tmp_path / "club.db"))
    try:
        assert proc.said.wait_for(lambda lines: "Press Ctrl-C to stop.\n" in lines), proc.said.lines
        proc.send_signal(signal.SIGUSR2)  # for a server that seems stuck: where each thread is
        assert proc.said.wait_for(lambda lines: any("serve_until_stopped" in line for line in lines)), proc.said.lines
        dump = proc.said.lines[proc.said.lines.index("Press Ctrl-C to stop.\n") :]
        assert any(line.startswith("Thread 0x") for line in dump) and len(dump) > 10, dump
        assert get(url, "/healthz")[:2] == (200, {"ok": True})  # and it serves on
    finally:
        clubserver.stop(proc)


def test_uvicorn_saying_each_malformed_request_is_said_once_a_minute_at_most():
    """Under a flood of garbage uvicorn says so for each request; the log is one line a minute for each of
    its lines."""
    now = [0.0]
    said = club_server._NowAndThen(60.0, clock=lambda: now[0])

    def passes(msg):
        return said.filter(logging.LogRecord("uvicorn.error", logging.WARNING, __file__, 1, msg, None, None))

    kept = []
    for i in range(700):  # ten a second for 70 s
        now[0] = 1000 + i / 10
        if passes("Invalid HTTP request received."):
            kept.append(i)
    assert kept == [0, 600]
    assert passes("Unsupported upgrade request.")  # another line: its own minute


def test_sigterm_under_a_flood_stops_serve_cleanly_without_a_traceback(tmp_path):
    db = str(tmp_path / "club.db")
    clubserver.pair(db, "b0ard")
    proc, url = clubserver.start(db)
    answered = threading.Semaphore(0)
    stop = threading.Event()

    def client(i):  # pages and boards' reports, back to back, each on a connection of its own
        n = 0
        while not stop.is_set():
            n += 1
            try:
                if i % 2:
                    get(url, "/api/state")
                else:
                    send(url, LIVE, {"state": {}}, "%d.%d" % (i + 1, n))
                answered.release()
            except (OSError, http.client.HTTPException, ValueError):
                pass  # (the server going away under it)

    clients = [threading.Thread(target=client, args=(i,)) for i in range(32)]
    for t in clients:
        t.start()
    try:
        for _ in range(300):  # a flood under way: then the club's machine is shut down
            assert answered.acquire(timeout=WAIT_S), "serve answered nothing for %d s" % WAIT_S
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=WAIT_S) == 0
    finally:
        stop.set()
        for t in clients:
            t.join(WAIT_S)
        said = clubserver.stop(proc) or proc.said.text()
    assert "Traceback" not in said and "Errno" not in said, said[-3000:]


def address(url):
    """(host, port) of a server's URL."""
    host, port = url[len("http://") :].rstrip("/").split(":")
    return host, int(port)


def connect(where, source, rcvbuf=None):
    sock = socket.socket()
    sock.settimeout(WAIT_S)
    if rcvbuf:  # (before the connection: the window it offers stays that small)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.connect(where)
    return sock


def read_all(sock):
    """What the server sends until it closes the connection."""
    return b"".join(iter(lambda: sock.recv(4096), b""))


def ended(sock):
    """Read until the server ends the connection (however slowly its answers come)."""
    try:
        while sock.recv(65536):
            pass
    except ConnectionResetError:
        pass
    return True


def test_a_phone_that_opens_many_connections_and_reads_slowly_shuts_no_board_out(tmp_path):
    with clubserver.serving(str(tmp_path / "club.db"), "b0ard") as (url, db_url, proc):
        where = address(url)
        phone = "127.0.3.1"
        readers = [connect(where, phone, rcvbuf=1024) for _ in range(64)]  # 64 connections from one phone
        get = b"GET / HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (where[0].encode(), where[1])
        for sock in readers[:8]:  # pages it does not read (as many as a connection may send ahead: more is cut
            sock.sendall(get * (places.PIPELINED + 1))  # off at once, test_club_hall.py)
        for n in range(1, 4):  # a board at the same address (a NAT): answered meanwhile
            assert send(url, GAMES, games_body(n), "1.%d" % n, source=phone)[0] == 200
        assert all(ended(sock) for sock in readers[:8])  # the answers it does not take: cut off (WRITE_S)
        late = connect(where, phone)
        late.sendall(b"GET /healthz HTTP/1.0\r\n\r\n")
        assert read_all(late).startswith(b"HTTP/1.1 200 ")  # no cap per address
        for sock in readers + [late]:
            sock.close()
        assert stored(db_url) == [("b0ard", n) for n in (1, 2, 3)]
        log = clubserver.stop(proc)
    assert "Traceback" not in log


def test_a_full_server_closes_the_connection_idle_longest_for_a_new_one(tmp_path):
    from cribboard.club.service import started

    db_url = str(tmp_path / "club.db")
    clubserver.pair(db_url, "b0ard")
    service = started(db_url, "127.0.0.1", 0, None, limit=16)
    try:
        service.server.places.request_s = 10 * WAIT_S  # (no head's deadline comes into it, however slow the machine)
        where = service.server.server_address
        url = "http://%s:%d/" % where
        idle = [connect(where, "127.0.4.1") for _ in range(16)]  # every place held, none used
        for n in range(1, 4):  # a board comes: the connection idle longest makes room for it...
            assert send(url, GAMES, games_body(n), "1.%d" % n, source="127.0.4.2")[0] == 200
            assert ended(idle[n - 1])
            assert service.server.places.closed_idle == n
            idle.append(connect(where, "127.0.4.1"))  # ...and another takes the place it left
        for sock in idle[3:]:  # the rest still held: answered
            sock.sendall(b"GET /api/state HTTP/1.0\r\n\r\n")
            assert read_all(sock).startswith(b"HTTP/1.1 200 ")
        for sock in idle:
            sock.close()
        assert stored(db_url) == [("b0ard", n) for n in (1, 2, 3)]
    finally:
        service.server.shutdown()
        service.close()


def test_a_thousand_header_drippers_from_one_address_leave_the_boards_answered(tmp_path):
    with clubserver.serving(str(tmp_path / "club.db"), "b0ard") as (url, db_url, proc):
        where = address(url)
        drippers = []
        for _ in range(1000):
            sock = connect(where, "127.0.6.1")
            try:
                sock.send(b"POST /board/v1/games HTTP/1.1\r\nX-A: ")  # a head that never ends
            except OSError:
                pass  # (turned away already)
            drippers.append(sock)
        for n in range(1, 4):
            assert send(url, GAMES, games_body(n), "1.%d" % n, source="127.0.6.2")[0] == 200
        for sock in drippers:
            sock.close()
        assert stored(db_url) == [("b0ard", n) for n in (1, 2, 3)]
        log = clubserver.stop(proc)
    assert "Traceback" not in log
