# Live pages pushed, not polled: a GET of /api/night/events (its query as
# /api/night's, ?tournament=ID) stays open and is sent the night's page data
# each time it changes, as Server-Sent Events (a browser's EventSource);
# /api/events the boards' scoreboards (/api/state's), for the page of boards.
# One feed per query reads the data (the front's cached answer) once per
# FEED_S while anyone watches, and every viewer is sent the same bytes: a
# thousand viewers cost about one read. A viewer too slow to take what it is
# sent is cut off by its connection's write deadline (cribboard.club.places);
# a quiet stream is sent a comment every KEEPALIVE_S, so a proxy or a phone
# does not take it for dead.
import asyncio
from collections.abc import Awaitable, Callable

from cribboard.club.asgi import Receive, Send, send_answer
from cribboard.web.http import RETRY_AFTER_S, Answer, Request, refused

FEED_S = 1.0  # how often a watched feed reads its data again (the night page's own read is once a second)
KEEPALIVE_S = 15.0  # a comment on a quiet stream this often
MAX_STREAMS = 4096  # streams open at once; then a 503 and the page polls instead
STREAMS = {"/api/night/events": "/api/night", "/api/events": "/api/state"}  # a stream's path -> the JSON it pushes
EVENT_STREAM = "text/event-stream"


class Feed:
    """One live JSON's latest data, and a wake-up for its viewers when it changes."""

    def __init__(self) -> None:
        self.data: bytes | None = None
        self.version = 0
        self.viewers = 0
        self.changed = asyncio.Event()
        self.follower: asyncio.Future[None] | None = None

    def publish(self, data: bytes) -> None:
        if data != self.data:
            self.data, self.version = data, self.version + 1
            self.changed.set()
            self.changed = asyncio.Event()  # (the next change wakes those who wait after this one)


class Feeds:
    def __init__(self, read: Callable[[str, str], Awaitable[Answer]]) -> None:
        """read(path, query): the live JSON's answer now."""
        self._read = read
        self._feeds: dict[tuple[str, str], Feed] = {}
        self.paths = frozenset(STREAMS)
        self.streams = 0
        self._stop: asyncio.Event | None = None

    def stop(self) -> None:
        """End every stream (in the loop): the server is stopping."""
        self._stopped().set()
        for feed in self._feeds.values():
            feed.changed.set()

    def _stopped(self) -> asyncio.Event:
        if self._stop is None:
            self._stop = asyncio.Event()
        return self._stop

    async def stream(self, request: Request, receive: Receive, send: Send) -> None:
        """Stream the live JSON of request's path and query until the viewer goes or the server stops."""
        if self.streams >= MAX_STREAMS or self._stopped().is_set():
            answer = refused(503, "too many live pages open; ask again", {"Retry-After": str(RETRY_AFTER_S)})
            await send_answer(send, answer, request.method == "HEAD")
            return
        key = (STREAMS[request.path], request.query)
        feed = self._feeds.get(key)
        if feed is None:
            feed = self._feeds[key] = Feed()
            feed.follower = asyncio.ensure_future(self._follow(key, feed))  # (held: the loop keeps a weak one)
        feed.viewers += 1
        self.streams += 1
        try:
            await self._stream(feed, receive, send, request.method == "HEAD")
        finally:
            feed.viewers -= 1
            self.streams -= 1

    async def _stream(self, feed: Feed, receive: Receive, send: Send, head_only: bool) -> None:
        headers = [
            (b"content-type", EVENT_STREAM.encode()),
            (b"cache-control", b"no-store"),
            (b"x-accel-buffering", b"no"),  # (a proxy such as nginx passes each event on at once)
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        if head_only:
            await send({"type": "http.response.body", "body": b""})
            return
        gone = asyncio.ensure_future(_gone(receive))
        stopped = self._stopped()
        sent = 0
        try:
            await send(
                {"type": "http.response.body", "body": b"retry: %d\n\n" % (RETRY_AFTER_S * 1000), "more_body": True}
            )
            while not gone.done() and not stopped.is_set():
                if feed.data is not None and feed.version != sent:
                    sent = feed.version
                    await send(
                        {"type": "http.response.body", "body": b"data: " + feed.data + b"\n\n", "more_body": True}
                    )
                    continue
                changed = asyncio.ensure_future(feed.changed.wait())
                done, _pending = await asyncio.wait(
                    (gone, changed), timeout=KEEPALIVE_S, return_when=asyncio.FIRST_COMPLETED
                )
                changed.cancel()
                if not done:
                    await send({"type": "http.response.body", "body": b": still here\n\n", "more_body": True})
            await send({"type": "http.response.body", "body": b""})  # the stream ends (nothing is sent to one gone)
        finally:
            gone.cancel()

    async def _follow(self, key: tuple[str, str], feed: Feed) -> None:
        """Read the feed's data while anyone watches it (a viewer that comes finds it, or waits one read)."""
        stopped = self._stopped()
        try:
            while not stopped.is_set():
                answer = await self._read(*key)
                if answer.status == 200:
                    feed.publish(answer.data())
                try:
                    await asyncio.wait_for(stopped.wait(), FEED_S)
                except asyncio.TimeoutError:
                    pass
                if feed.viewers == 0:
                    break
        finally:
            if self._feeds.get(key) is feed:
                del self._feeds[key]


async def _gone(receive: Receive) -> None:
    """Returns when the viewer has gone (its request's body, if any, is read and passed over)."""
    while (await receive())["type"] != "http.disconnect":
        pass
