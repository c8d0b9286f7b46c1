# A club evening with everything going wrong at once (issue 53): twenty
# simulated Pico Ws through the club's balancer (a proxy `serve` trusts,
# which names no board's address: the boards are one group behind one
# address, as behind a venue's NAT) to one `cribboard serve` on PostgreSQL,
# each with a game waiting, and games played on the buttons at some tables;
# meanwhile the room watches (issue 67: 200 viewers holding connections
# open, half polling the projector's JSON, half on its live stream), a
# phone on the WiFi holds 64 slow readers at the server, a stranger replays
# a board's old request as fast as it is answered, one board is wiped
# mid-way (a new log numbered from 1 again) and paired again, and
# PostgreSQL restarts once. Every game each board confirmed is stored
# exactly once, the wiped board's new games beside its old, and every
# viewer is served. Run by `make test-club`, one test at a time (it fills
# two cores).
import asyncio
import http.client
import json
import secrets
import socket
import threading
import time

import pytest
from clubserver import Proxy, start, stop
from deadline import COMMAND_S, WAIT_S
from pgserver import Cluster
from simboard import Board, fill_log

from cribapp.hostapi import keep_conf
from cribapp.store import FlashFiles
from cribboard import store
from cribboard.club.protocol import board_headers
from cribboard.sim.simulator import board_ident
from cribboard.web import scoreboard
from cribcore.clubwire import LIVE
from cribcore.seal import unseal

BOARDS = 20
PLAYED = 4  # boards that play a game on their buttons before the wipe and the restart, and after


def pair(db_url, flash, server):
    """A board given the club's WiFi and a new key, on its flash, and the key in the club's database (as
    `cribboard wifi` and `cribboard pair` leave them); its id and key."""
    key = secrets.token_hex(16)
    files = FlashFiles(str(flash))
    keep_conf(files, "wifi", {"ssid": "club", "password": "a password"})
    keep_conf(files, "club", {"server": server, "key": key})
    conn = store.connect(db_url)
    try:
        store.club.pair(conn, board_ident(flash), key.encode(), "2026-11-28T20:00:00+00:00")
    finally:
        conn.close()
    return board_ident(flash), key


class Beside:
    """The phone's 64 slow readers and the stranger's replays, each in threads of their own until stop()."""

    def __init__(self, where, replay):
        self.where = where
        self.replay = replay  # (headers, body) of a request the server took once
        self.done = threading.Event()
        self.replayed = {}  # status -> how many
        self.threads = [threading.Thread(target=self._reader, daemon=True) for _ in range(64)]
        self.threads.append(threading.Thread(target=self._replayer, daemon=True))
        for t in self.threads:
            t.start()

    def _reader(self):
        pipelined = b"GET / HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (self.where[0].encode(), self.where[1]) * 200
        while not self.done.is_set():
            try:
                with socket.socket() as sock:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
                    sock.bind(("127.0.8.1", 0))
                    sock.settimeout(WAIT_S)
                    sock.connect(self.where)
                    sock.sendall(pipelined)
                    self.done.wait(2)  # reads nothing, holds on
            except OSError:
                self.done.wait(0.2)  # (turned away, or cut off: again)

    def _replayer(self):
        headers, body = self.replay
        while not self.done.is_set():
            conn = http.client.HTTPConnection(*self.where, timeout=WAIT_S, source_address=("127.0.8.2", 0))
            try:
                conn.request("POST", LIVE, body, headers)
                status = conn.getresponse().status
                self.replayed[status] = self.replayed.get(status, 0) + 1
            except (OSError, http.client.HTTPException):
                self.done.wait(0.2)
            finally:
                conn.close()

    def stop(self):
        self.done.set()
        for t in self.threads:
            t.join(WAIT_S)


class Viewers:
    """The room: `n` pages from the phones' address, each holding one connection open, half polling the
    projector's JSON every 2 s, half watching its live stream; in an event loop of their own until stop()."""

    def __init__(self, where, n=200):
        self.where = where
        self.answers = [0] * (n // 2)  # each poller's 200s
        self.events = [0] * (n - n // 2)  # each stream's events
        self.loop = asyncio.new_event_loop()
        self.stopping = asyncio.Event()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._all(),), daemon=True)
        self.thread.start()

    async def _all(self):
        self.stopping = asyncio.Event()
        await asyncio.gather(
            *(self._poll(i) for i in range(len(self.answers))), *(self._watch(i) for i in range(len(self.events)))
        )

    async def _open(self):
        return await asyncio.open_connection(*self.where, local_addr=("127.0.8.4", 0))

    async def _poll(self, i):
        head = b"GET /api/night HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (self.where[0].encode(), self.where[1])
        reader = writer = None
        while not self.stopping.is_set():
            try:
                if writer is None:
                    reader, writer = await self._open()
                writer.write(head)
                got = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT_S)
                size = int(next(x for x in got.split(b"\r\n") if x.lower().startswith(b"content-length:"))[15:])
                await asyncio.wait_for(reader.readexactly(size), WAIT_S)
                if got[9:12] == b"200":
                    self.answers[i] += 1
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
                writer = None  # (the server went away a moment, or closed it: a new connection)
            try:
                await asyncio.wait_for(self.stopping.wait(), 2.0)
            except asyncio.TimeoutError:
                pass

    async def _watch(self, i):
        head = b"GET /api/night/events HTTP/1.1\r\nHost: %s:%d\r\n\r\n" % (self.where[0].encode(), self.where[1])
        while not self.stopping.is_set():
            try:
                reader, writer = await self._open()
                writer.write(head)
                while not self.stopping.is_set():
                    try:
                        got = await asyncio.wait_for(reader.read(65536), 1.0)
                    except asyncio.TimeoutError:
                        continue  # (nothing new: the stream stays)
                    if not got:
                        break  # (the server went away a moment: open it again)
                    self.events[i] += got.count(b"data: ")
                writer.close()
            except OSError:
                await asyncio.sleep(0.2)

    def stop(self):
        self.loop.call_soon_threadsafe(self.stopping.set)
        self.thread.join(WAIT_S)


def send_once(where, headers, data):
    conn = http.client.HTTPConnection(*where, timeout=WAIT_S, source_address=("127.0.8.3", 0))
    try:
        conn.request("POST", LIVE, data, headers)
        return conn.getresponse().status
    finally:
        conn.close()


def logged(ident, flash):
    """(board, log, seq) of every whole record on a board's flash, read without writing (the board runs)."""
    try:
        lines = (flash / "games.log").read_bytes().splitlines(keepends=True)
    except FileNotFoundError:
        return []
    whole = [text.split(" ", 1) for text in (unseal(line) for line in lines) if text is not None]
    log = json.loads(whole[0][1])["log"] if whole and whole[0][0] == "0" else ""
    return [(ident, log, int(seq)) for seq, _body in whole if seq != "0"]


def kept(db_url):
    """(board, log, seq) of every game the database holds."""
    conn = store.connect(db_url)
    try:
        return sorted((r["board"], r["log"], r["seq"]) for r in conn.all("SELECT board, log, seq FROM games"))
    finally:
        conn.close()


def wait_for(what, why):
    deadline = time.monotonic() + COMMAND_S
    while not what():
        assert time.monotonic() < deadline, why()
        time.sleep(0.2)


@pytest.mark.club
def test_an_evening_of_wipes_floods_slow_readers_and_a_database_restart_loses_and_doubles_no_game(tmp_path):
    with Cluster() as cluster:
        db_url = cluster.new_database()
        store.connect(db_url).close()
        proc, url = start(db_url, args=("--trusted-proxy", "127.0.0.1"))
        host, port = url[len("http://") :].rstrip("/").split(":")
        proxy = Proxy([(host, int(port))])
        tables, ids, beside, viewers = [], [], None, None
        try:
            keys = {}
            for n in range(BOARDS):
                flash = tmp_path / ("board%d" % n)
                fill_log(flash, 1)  # a game waiting on each
                ident, keys[ident] = pair(db_url, flash, proxy.url)
                ids.append(ident)
                tables.append(Board(flash))
            old_log = []  # the wiped board's log before the wipe: (board, log, seq)

            def confirmed():
                """Every game each board logged, as (board, log, seq): what its flash holds, and the wiped
                board's old log."""
                games = list(old_log)
                for ident, t in zip(ids, tables):
                    games += logged(ident, t.flash)
                return sorted(games)

            def behind():
                return "stored %s, the boards' logs %s; the server said: %s" % (
                    kept(db_url),
                    confirmed(),
                    proc.said.text()[-2000:],
                )

            wait_for(lambda: len(kept(db_url)) == BOARDS and kept(db_url) == confirmed(), behind)
            # A stranger heard a request of board 0's that the server took, and sends it again and again...
            data = json.dumps({"state": scoreboard.read_state(tables[0].flash / "state.json")}).encode()
            headers = board_headers(keys[ids[0]].encode(), LIVE, ids[0], "%d.1" % 2**20, data)
            assert send_once((host, int(port)), headers, data) == 200
            beside = Beside((host, int(port)), (headers, data))  # ...and a phone on the WiFi holds slow readers
            viewers = Viewers((host, int(port)))  # the room watches
            for t in tables[:PLAYED]:  # play on the buttons: a game each at a few tables
                t.play_a_game_to_61()
            wiped = tables[-1]
            wiped.stop()  # one board's flash is wiped mid-way, and it is paired again
            old_log.extend(logged(ids[-1], wiped.flash))
            for name in ("state.json", "games.log", "wifi.json", "club.json"):
                (wiped.flash / name).unlink(missing_ok=True)
            ident, keys[ids[-1]] = pair(db_url, wiped.flash, proxy.url)
            assert ident == ids[-1]
            tables[-1] = Board(wiped.flash)
            cluster.stop_server()  # the database restarts once, under it all
            cluster.start_server()
            for t in tables[PLAYED : 2 * PLAYED] + [tables[-1]]:  # more games, the wiped board's first in its new log
                t.play_a_game_to_61()
            wait_for(lambda: kept(db_url) == confirmed(), behind)
            games = confirmed()
            assert len(games) == BOARDS + 2 * PLAYED + 1  # the waiting ones, the played, the wiped board's new one
            assert len({g[1] for g in games if g[0] == ids[-1]}) == 2  # its two logs, each game once
        finally:
            if viewers is not None:
                viewers.stop()
            if beside is not None:
                beside.stop()
            for t in tables:
                t.stop()
            proxy.close()
            said = stop(proc)
    assert beside.replayed
    assert set(beside.replayed) <= {409, 429, 503}
    assert all(viewers.answers) and all(viewers.events), (viewers.answers, viewers.events)  # each viewer served
    assert "Traceback" not in said
