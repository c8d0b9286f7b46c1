# What one open connection may hold on the club's server, and for how long.
# The server is uvicorn's event loop (cribboard.club.server): a connection
# costs a few KB of memory, not a thread, so thousands of phones, browsers
# and boards stay open side by side. What uvicorn leaves unbounded is
# bounded here, on the connection itself:
# - a request's head must be in within REQUEST_S of its first byte (of the
#   connection, for its first request), and be at most HEADERS_MAX bytes: a
#   client dripping a byte now and then, or sending an endless head, is cut
#   off (uvicorn times only the wait between kept-alive requests);
# - an answer must be taken: a client that leaves its answer unread past
#   WRITE_S (its transport's buffer over the high-water mark all that time)
#   is cut off, the answer with it; one that sends more than PIPELINED
#   requests ahead of their answers is cut off at once (each waiting
#   request costs the server a dozen objects: 64 such clients of 200 each
#   made the collector's full passes stop every thread for 120 ms);
# - places: past `limit` open connections, the one idle longest (no request
#   under way: kept alive between requests, or a head still coming) is
#   closed to make room. A client that holds places without using them is
#   the one closed; a board's request, a page being answered and a live
#   stream are never closed for another. No cap per address: a venue's
#   NAT or a proxy puts a whole room behind one.
# Done on uvicorn's HTTP protocol (its `http=` setting takes a protocol
# class): the asyncio.Protocol methods, the httptools parser's callbacks
# and its requests' `disconnected` flag. docs/decisions.md says why;
# tests/host/test_club_service.py and test_club_hall.py fail if uvicorn
# changes under it.
import asyncio
from collections import OrderedDict, deque
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from cribcore.clubwire import REQUEST_MS

REQUEST_S = REQUEST_MS / 1000  # a board waits no longer for its answer: a head slower than that is nobody's
WRITE_S = REQUEST_S  # an answer not taken by then is cut off with its connection
HEADERS_MAX = 16 * 1024  # a board's head is 300 bytes; a browser's a few KB
PIPELINED = 16  # requests waiting behind the one answered (browsers send one at a time; a board, one a connection)
_TOO_LARGE_BODY = b'{"error": "the request head is too large"}'
_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json\r\n"
    b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(_TOO_LARGE_BODY), _TOO_LARGE_BODY)
)


class Places:
    """The open connections of one server: which are idle (oldest first), and what was cut off."""

    def __init__(self, limit: int, request_s: float = REQUEST_S, write_s: float = WRITE_S) -> None:
        self.limit = limit
        self.request_s = request_s
        self.write_s = write_s
        self.open = 0
        self.idle: OrderedDict[Guarded, None] = OrderedDict()  # no request under way, longest idle first
        self.closed_idle = 0  # closed to make room for a new connection
        self.cut_off = 0  # heads too slow or too large, answers not taken

    def made(self, conn: "Guarded") -> None:
        self.open += 1
        if self.open > self.limit and self.idle:
            oldest = next(iter(self.idle))
            self.closed_idle += 1
            oldest.drop()

    def lost(self, conn: "Guarded") -> None:
        self.open -= 1
        self.idle.pop(conn, None)


class Guarded(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with the bounds above. `places` is set on a subclass per server
    (guarded_protocol)."""

    places: Places

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._head_bytes = 0  # what has come since a head began (of a head, and what may follow it)
        self._head_size = 0  # the head's URL and fields, as the parser reads them
        self._head_timer: asyncio.TimerHandle | None = None
        self._write_timer: asyncio.TimerHandle | None = None
        self._dropped = False
        self._cycles: deque[Any] = deque()  # its requests not yet answered, in order (pipelined, more than one)
        self.places.idle[self] = None
        self._head_begins()
        self.places.made(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.places.lost(self)
        for timer in (self._head_timer, self._write_timer):
            if timer is not None:
                timer.cancel()
        self._gone()
        super().connection_lost(exc)
        # uvicorn's protocol and its newest request refer to each other (the request answers through a
        # method of the protocol's): a reference cycle each closed connection would leave to Python's
        # cyclic collector, whose passes stop every thread. Broken here (as uvicorn breaks its parser's),
        # each is freed as it closes; a request still under way keeps what it needs until it ends.
        self.cycle = None  # type: ignore[assignment]
        self.pipeline.clear()

    def _gone(self) -> None:
        # uvicorn marks its newest request's cycle disconnected when the connection goes, so its answer is
        # not written; a pipelined request under way is an older one, and its answer would be written to
        # a closed transport (uvloop's raises). Every request of the connection, as uvicorn does its newest.
        for cycle in self._cycles:
            if not cycle.response_complete:
                cycle.disconnected = True
                cycle.message_event.set()
        self._cycles.clear()

    def data_received(self, data: bytes) -> None:
        if self in self.places.idle:  # a head (the next request's, on a kept-alive connection) is coming
            self.places.idle.move_to_end(self)
            if self._head_timer is None:
                self._head_begins()
            self._head_bytes += len(data)
        super().data_received(data)
        if self._head_bytes > HEADERS_MAX and self in self.places.idle:  # (a head that ended here is not counted:
            # on_headers_complete set it back, whatever of the body came with it)
            self._too_large()

    def _too_large(self) -> None:
        if not self._dropped:
            self.places.cut_off += 1
            self.transport.write(_TOO_LARGE)
            self.drop(abort=False)

    def on_url(self, url: bytes) -> None:  # (the httptools parser's callbacks, as a head is read: counted)
        self._head_size += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._head_size += len(name) + len(value) + 4
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        # (the parser's callback: a request begins; what follows it on the connection is its body, or a
        # pipelined request that waits for its answer)
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        too_large = self._head_size > HEADERS_MAX  # (a whole head that came in one piece)
        self._head_bytes = self._head_size = 0
        self.places.idle.pop(self, None)
        if too_large:
            self._too_large()
        if not self._dropped:
            super().on_headers_complete()
            self._cycles.append(self.cycle)
            if len(self.pipeline) > PIPELINED:
                self.places.cut_off += 1
                self.drop()

    def on_body(self, body: bytes) -> None:
        if not self._dropped:  # (what came after a head refused is not read)
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self._dropped:
            super().on_message_complete()

    def on_response_complete(self) -> None:
        while self._cycles and self._cycles[0].response_complete:  # (answered in order)
            self._cycles.popleft()
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline:
            self.places.idle[self] = None  # kept alive for its next request (uvicorn's idle timeout)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._write_timer is None:
            self._write_timer = self.loop.call_later(self.places.write_s, self._not_taken)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None

    def _head_begins(self) -> None:
        self._head_timer = self.loop.call_later(self.places.request_s, self._too_slow)

    def _too_slow(self) -> None:
        self._head_timer = None
        if self in self.places.idle:  # its head began (or, a new connection, never came) that long ago
            self.places.cut_off += 1
            self.drop()

    def _not_taken(self) -> None:
        self._write_timer = None
        self.places.cut_off += 1
        self.drop()

    def drop(self, abort: bool = True) -> None:
        """Close this connection now (what it was sent is lost with it, or, abort=False, sent first)."""
        if self._dropped:
            return
        self._dropped = True
        self.places.idle.pop(self, None)
        self._gone()  # (now: the transport tells the protocol it is lost only later)
        if abort:
            self.transport.abort()
        else:
            self.transport.close()


def guarded_protocol(places: Places) -> type[Guarded]:
    """The protocol class for one server's uvicorn Config(http=...), counting its connections in places."""
    return type("GuardedProtocol", (Guarded,), {"places": places})
