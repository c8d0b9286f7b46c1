# The club's server process: its WSGI app (cribboard.club.app) under
# waitress, a maintained production server (docs/decisions.md says why this
# one), with every bound a season-long service needs: a pool of worker
# threads, a cap on open connections (a burst past it waits its turn, a
# little, outside the loop's poll set) and a smaller one for any one
# address (a phone on the club's WiFi cannot hold the boards' places), a
# connection past them turned away with a 503 and Retry-After, at once or
# after WAITING_S (never left waiting in silence), small headers and bodies,
# and deadlines:
# one for each request from its first byte, so a client dripping a byte
# every few seconds is cut off at REQUEST_S like one that sends nothing; one
# for each answer to be taken (a client reading a byte now and then is cut
# off at WRITE_S); and waitress's own on a connection left idle. The bounds
# are added here, on waitress's parser, channel and server classes.
import json
import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer
from waitress.task import WSGITask

from cribboard.club.app import BEGUN
from cribboard.club.ratelimit import LogLimit
from cribboard.web.http import RETRY_AFTER_S
from cribcore.clubwire import REQUEST_MS

log = logging.getLogger("club")

THREADS = 8  # requests handled at once (each holds at most one database connection)
CONNECTIONS = 64  # open at once; the next waits its turn (WAITING). More, and waitress's loop (a pass over
# every open one each time it wakes) held the GIL from the workers: 200 open took one server from 580
# requests a second to under 100 (docs/benchmarks.md)
PER_ADDRESS = 8  # open or waiting at once from one address (but the trusted proxy's): a board holds one
WAITING = 1024  # accepted while all CONNECTIONS are open, kept out of the loop's poll set until one goes...
WAITING_S = 2  # ...for this long at most (a second's granularity): then a 503, not silence
BACKLOG = 1024  # connections the kernel holds until they are accepted (capped by net.core.somaxconn)
REQUEST_S = REQUEST_MS // 1000  # from a request's first byte to its last: a board waits no longer
WRITE_S = REQUEST_S  # an answer not all taken by its client by then is cut off with its connection
_BUSY_BODY = json.dumps({"error": "the club's server is full; try again"}).encode()
BUSY = (
    b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
    b"Retry-After: %d\r\nConnection: close\r\n\r\n" % (len(_BUSY_BODY), RETRY_AFTER_S)
) + _BUSY_BODY
HEADERS_MAX = 16 * 1024  # a board's head is 300 bytes; a browser's a few KB


class _TimedParser(HTTPRequestParser):
    """A request as it comes in, with when its first byte came."""

    def __init__(self, adj: Any) -> None:
        super().__init__(adj)
        self.begun = time.time()  # waitress's maintenance clock


class _TimedTask(WSGITask):
    """The request's first byte's time goes to the app (BEGUN): a request that waited in the queue
    past its client's patience is answered at once, not worked on for nobody."""

    def get_environment(self) -> dict[str, Any]:
        environ = super().get_environment()
        environ[BEGUN] = getattr(self.request, "begun", None)
        return environ


class _TimedChannel(HTTPChannel):
    parser_class = _TimedParser
    task_class = _TimedTask

    def del_channel(self, map: Any = None) -> None:
        super().del_channel(map)
        server: Any = self.server
        server.admit()  # its place to the connection that waited longest


class _Server(TcpWSGIServer):
    channel_class = _TimedChannel
    effective_host: str  # where it listens: set by waitress's __init__ (not in its published stubs)
    effective_port: int
    turned_away = 0  # connections turned away (the tests and the bench read it)
    waiting: deque[tuple[socket.socket, Any, float]]  # accepted while full: (connection, address, since);
    # set by ClubServer before the loop runs

    def handle_accept(self) -> None:
        """Waitress's accept, with the caps: past them, a 503 at once and the connection closed."""
        server: Any = self  # (waitress is untyped: its attributes are set in __init__)
        try:
            got = server.accept()
            if got is None:
                return
            conn, addr = got
            server.set_socket_options(conn)
        except OSError:
            return  # (the client went before it was accepted, as waitress's own accept says)
        addr = server.fix_addr(addr)
        host = addr[0] if isinstance(addr, tuple) else addr
        channels = list(server.active_channels.values())
        here = sum(1 for c in channels if _host(c.addr) == host) + sum(1 for w in self.waiting if _host(w[1]) == host)
        if here >= PER_ADDRESS and host != server.adj.trusted_proxy:
            self._turn_away(conn, host, "%d open from it already" % here)
        elif len(channels) < CONNECTIONS:
            server.channel_class(server, conn, addr, server.adj, map=server._map)
        elif len(self.waiting) < WAITING:  # a burst: it waits its turn, out of the loop's poll set
            self.waiting.append((conn, addr, time.time()))
        else:
            self._turn_away(conn, host, "the server is full")

    def admit(self) -> None:
        """A place is free: the connections that waited longest take the free places."""
        server: Any = self
        while self.waiting and len(server.active_channels) < CONNECTIONS:
            conn, addr, _since = self.waiting.popleft()
            server.channel_class(server, conn, addr, server.adj, map=server._map)

    def _turn_away(self, conn: socket.socket, host: str, why: str) -> None:
        self.turned_away += 1
        _turn_away(conn)
        if _TURNED.take(host)[0]:
            log.warning("turned away a connection from %s: %s", host, why)

    def maintenance(self, now: Any) -> None:
        super().maintenance(now)  # idle connections
        self.admit()
        while self.waiting and now - self.waiting[0][2] > WAITING_S:  # full for a while: it is told so, not left
            conn, addr, _since = self.waiting.popleft()
            self._turn_away(conn, _host(addr), "the server is full")
        cutoff = now - REQUEST_S
        server: Any = self  # (waitress is untyped: its attributes are set in __init__)
        for channel in list(server.active_channels.values()):
            request = getattr(channel, "request", None)
            if request is not None and getattr(request, "begun", now) < cutoff:
                channel.will_close = True  # past its deadline: the connection goes, the request with it
            if not channel.total_outbufs_len:
                channel.owed_since = None
            elif getattr(channel, "owed_since", None) is None:
                channel.owed_since = now
            elif now - channel.owed_since > WRITE_S:  # its client takes its answer too slowly: cut off
                channel.handle_close()


_TURNED = LogLimit(1, 60.0, time.monotonic)  # a line a minute about each address turned away


def _host(addr: Any) -> str:
    return addr[0] if isinstance(addr, tuple) else str(addr)


def _turn_away(conn: socket.socket) -> None:
    """A 503 with Retry-After, sent without waiting, and the connection closed. What has come of its request
    is read first, so that the close is a close, not a reset that could lose the answer."""
    try:
        conn.setblocking(False)
        try:
            conn.recv(HEADERS_MAX)
        except BlockingIOError:
            pass
        conn.send(BUSY)
        conn.shutdown(socket.SHUT_WR)
    except OSError:
        pass  # (gone already)
    finally:
        conn.close()


class _NowAndThen(logging.Filter):
    """Waitress says each time its connections reach the cap; under a flood that is many times a second.
    Said once a minute at most (the club's own log limit, keyed by the line)."""

    def __init__(self, every_s: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._limit = LogLimit(1, every_s, clock)

    def filter(self, record: logging.LogRecord) -> bool:
        said = str(record.msg)
        return "connection limit" not in said or self._limit.take(said)[0]


_NOW_AND_THEN = _NowAndThen()


class ClubServer:
    """waitress serving app on (host, port) in a thread of its own; OSError if the port is taken
    (a board paired with this port must not find another server, or none, there)."""

    def __init__(self, app: Any, host: str, port: int, max_body: int, trusted_proxy: str | None = None) -> None:
        # trusted_proxy: the address of a balancer before it; what it says it forwarded for (the last of
        # X-Forwarded-For) is then the request's address (waitress's own rule); anyone else's is dropped.
        proxied: dict[str, Any] = {}
        if trusted_proxy is not None:
            proxied = {"trusted_proxy": trusted_proxy, "trusted_proxy_headers": "x-forwarded-for"}
        self._server: Any = _Server(
            app,
            host=host,
            port=port,
            threads=THREADS,
            connection_limit=CONNECTIONS + 8,  # (waitress's own stop, never reached: these caps come first)
            backlog=BACKLOG,
            channel_timeout=REQUEST_S,
            cleanup_interval=1,
            max_request_header_size=HEADERS_MAX,
            max_request_body_size=max_body + 1,  # (waitress refuses a body of its limit: max_body is allowed)
            asyncore_use_poll=True,
            ident="cribboard",
            expose_tracebacks=False,
            clear_untrusted_proxy_headers=True,
            **proxied,
        )
        logging.getLogger("waitress").addFilter(_NOW_AND_THEN)  # (once: a filter added again is not doubled)
        self._server.waiting = deque()  # (before its loop runs: nothing is accepted until then)
        self.server_address = (str(self._server.effective_host), int(self._server.effective_port))
        self._thread = threading.Thread(target=self._server.run, name="club-server", daemon=True)
        self._thread.start()

    def shutdown(self) -> None:
        """Stop taking connections, let the requests being worked on finish (their threads wake the loop
        through its pipe: closed first, it was an EBADF traceback from each), then close the open
        connections (from any thread) and wait for the loop."""
        server = self._server
        if not self._thread.is_alive():
            return

        def in_loop(work: Callable[[], None]) -> None:  # in the loop's own thread: asyncore is not thread-safe
            try:
                server.trigger.pull_trigger(work)
            except OSError as e:
                # The loop's wake-up pipe is gone (waitress closes it when poll reports it, or its listening
                # socket, hung up or invalid), so the loop cannot be asked. Done from here: the loop finds its
                # map changed after its next poll (a second at most), and this process still ends with 0.
                logging.getLogger("club").warning("the server's wake-up pipe was closed before the stop (%s)", e)
                work()

        def close_all() -> None:
            while server.waiting:  # (first: a connection closed below would admit one)
                server.waiting.popleft()[0].close()
            for dispatcher in list(server._map.values()):
                dispatcher.close()

        in_loop(
            lambda: wasyncore.dispatcher.close(server)
        )  # the listening socket alone (waitress's close takes the pipe too)
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=REQUEST_S)
        in_loop(close_all)
        self._thread.join(REQUEST_S)

    def server_close(self) -> None:
        pass  # shutdown closed everything (the name serve_until_stopped calls, as on http.server's)
