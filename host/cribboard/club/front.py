# The club's app (cribboard.club.app) as the event loop serves it (ASGI,
# under uvicorn: cribboard.club.server). The loop holds every connection;
# threads do the work that waits on the database, in two pools:
# - boards first: a board's report runs on a pool of its own, with its own
#   database connections, so no page traffic ever queues in front of it;
# - pages: the pages and their JSON run on a small pool of their own, and
#   the live JSON (the boards' state and LEDs, the night's page) is made
#   once per CACHE_S whatever the number of viewers asking;
# - live streams (Server-Sent Events): /api/night/events pushes the night's
#   page data to every projector and phone watching, from one read
#   (cribboard.club.feeds).
# A request's body must be in within REQUEST_S of its head (the head's own
# deadline is the connection's: cribboard.club.places). The client's
# address is the connection's, or, from the trusted proxy, the last of its
# X-Forwarded-For, which must be an IP address.
import asyncio
import io
import ipaddress
import time
from concurrent.futures import ThreadPoolExecutor

from cribboard.club.app import ClubApp
from cribboard.club.asgi import Receive, Scope, Send, send_answer
from cribboard.club.feeds import Feeds
from cribboard.club.places import REQUEST_S
from cribboard.club.protocol import MAX_BODY
from cribboard.web.http import Answer, Request, refused

CACHE_S = 0.5  # the live JSON is made again at most this often (a board reports its state every few seconds)
CACHED = ("/api/state", "/api/leds", "/api/night")  # their answers depend on the path and query alone
_CACHE_KEYS = 64  # answers kept at once (more, and the oldest go: a reader asking many cannot fill memory)


class Front:
    """The ASGI callable. board_threads and page_threads: the two pools' sizes (the database connections
    each may hold)."""

    def __init__(self, app: ClubApp, trusted_proxy: str | None, board_threads: int, page_threads: int) -> None:
        self.app = app
        self.trusted_proxy = trusted_proxy
        self._boards = ThreadPoolExecutor(board_threads, "club-board")
        self._pages = ThreadPoolExecutor(page_threads, "club-page")
        self._cache: dict[tuple[str, str], tuple[float, Answer]] = {}
        self._making: dict[tuple[str, str], asyncio.Future[Answer]] = {}
        self.feeds = Feeds(self._live_json)

    def close(self) -> None:
        """After the server has stopped: the pools' threads finish what they were given."""
        self._boards.shutdown(wait=True, cancel_futures=True)
        self._pages.shutdown(wait=True, cancel_futures=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        begun = time.time()
        request = self._request(scope, begun)
        if isinstance(request, Answer):
            await send_answer(send, request, scope["method"] == "HEAD")
            return
        if request.path in self.feeds.paths:
            refusal = self.app.stream_refusal(request)
            if refusal is None:
                await self.feeds.stream(request, receive, send)
                return
            await send_answer(send, refusal, request.method == "HEAD")
            return
        body = await self._body(request, receive, begun + REQUEST_S)
        if body is None:
            answer = self.app.refuse(request, refused(408, "the request was not all sent in time", close=True))
        elif request.method == "GET" and request.path in CACHED:
            answer = self.app.admission(request) or await self._cached(request)
        else:
            request = _with_body(request, body)
            pool = self._boards if request.method == "POST" else self._pages
            answer = await asyncio.get_running_loop().run_in_executor(pool, self.app.answer, request)
        await send_answer(send, answer, request.method == "HEAD")

    def _request(self, scope: Scope, begun: float) -> Request | Answer:
        headers: dict[str, str] = {}
        for name, value in scope["headers"]:
            key, text = name.decode("latin-1").lower(), value.decode("latin-1")
            headers[key] = headers[key] + ", " + text if key in headers else text
        client = scope.get("client")
        peer = client[0] if client else ""
        forwarded = headers.pop("x-forwarded-for", None)
        request = Request(scope["method"], scope["path"], scope["query_string"].decode("latin-1"), headers, peer)
        if forwarded is not None and peer == self.trusted_proxy:
            named = _ip(forwarded.rpartition(",")[2].strip())
            if named is None:
                return self.app.refuse(
                    request, refused(400, "X-Forwarded-For names no IP address: %s" % ascii(forwarded[-60:]))
                )
            peer = named
        return Request(request.method, request.path, request.query, headers, peer, begun=begun)

    async def _body(self, request: Request, receive: Receive, until: float) -> bytes | None:
        """The body, read by the deadline (None if it was not all in by then, or the client went); nothing is
        read of a body the guard will refuse for its size (cribboard.web.guard)."""
        size = request.header("content-length")
        if not (size.isascii() and size.isdigit() and int(size) <= MAX_BODY):
            return b""
        chunks, got = [], 0
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, until - time.time()))
            except asyncio.TimeoutError:
                return None
            if message["type"] != "http.request":
                return None
            chunks.append(message.get("body", b""))
            got += len(chunks[-1])
            if not message.get("more_body") or got > int(size):
                return b"".join(chunks)

    async def _cached(self, request: Request) -> Answer:
        """The answer to a GET of live JSON, made at most once per CACHE_S for its path and query (those who
        ask while it is made wait for that one)."""
        key = (request.path, request.query)
        kept = self._cache.get(key)
        now = time.monotonic()
        if kept is not None and now - kept[0] < CACHE_S:
            return kept[1]
        making = self._making.get(key)
        if making is None:
            making = asyncio.get_running_loop().run_in_executor(self._pages, self.app.answer, request)
            self._making[key] = making
            try:
                answer = await making
            finally:
                del self._making[key]
            if len(self._cache) >= _CACHE_KEYS:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = (time.monotonic(), answer)
            return answer
        return await asyncio.shield(making)

    async def _live_json(self, path: str, query: str) -> Answer:
        """What a feed pushes: the live JSON's cached answer (a request of the feed's own, from no one)."""
        return await self._cached(Request("GET", path, query, {}))

    def stop(self) -> None:
        """In the loop: end the live streams, so the server's stop waits on none of them."""
        self.feeds.stop()


def _with_body(request: Request, body: bytes) -> Request:
    return Request(
        request.method, request.path, request.query, request.headers, request.peer, io.BytesIO(body).read, request.begun
    )


def _ip(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text)) if len(text) <= 45 else None
    except ValueError:
        return None
