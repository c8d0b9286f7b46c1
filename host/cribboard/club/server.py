# The club's server process: an ASGI app (cribboard.club.front) under
# uvicorn, a maintained production server, on one asyncio event loop
# (uvloop's where it is installed) with httptools' parser (docs/decisions.md
# says why, with the figures). The loop holds every open connection for a
# few KB each, so a hall's phones and browsers stay connected beside the
# boards; what each connection may hold, and for how long, is
# cribboard.club.places; the threads that wait on the database are the
# front's. The server runs in a thread of its own, so the
# command's main thread keeps its signals.
import asyncio
import logging
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn

from cribboard.club.places import REQUEST_S, Places, guarded_protocol
from cribboard.club.ratelimit import LogLimit

BACKLOG = 1024  # connections the kernel holds until they are accepted (capped by net.core.somaxconn)
KEEP_ALIVE_S = 30  # a connection with no request under way this long is closed (a page polls every 2 s)
OPEN_MAX = 16384  # connections open at once, at most (fewer where the process may open fewer files)
_FILES_SPARE = 256  # descriptors kept for the database, the logs and the rest


def open_limit() -> int:
    """How many connections this process can hold open: as many as it may open files, but a spare few. The
    soft limit is raised to the hard one first (often 1,024 of 1,048,576: a hall needs more)."""
    try:
        import resource
    except ImportError:  # (Windows: no such limit to raise)
        return OPEN_MAX
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = OPEN_MAX + _FILES_SPARE if hard == resource.RLIM_INFINITY else min(hard, OPEN_MAX + _FILES_SPARE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return max(64, min(OPEN_MAX, soft - _FILES_SPARE))


class _NowAndThen(logging.Filter):
    """uvicorn says each malformed request it refuses ("Invalid HTTP request received."); under a flood that
    is many times a second. Each of its lines said once a minute at most (the club's own log limit, keyed by
    the line)."""

    def __init__(self, every_s: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._limit = LogLimit(1, every_s, clock)

    def filter(self, record: logging.LogRecord) -> bool:
        return self._limit.take(str(record.msg))[0]


_NOW_AND_THEN = _NowAndThen()


class ClubServer:
    """uvicorn serving app (ASGI) on (host, port) in a thread of its own; OSError if the port is taken (a
    board paired with this port must not find another server, or none, there). on_stop: called in the
    loop when the stop begins (the app's live streams end, so the stop waits on none of them)."""

    def __init__(
        self, app: Any, host: str, port: int, on_stop: Callable[[], None] | None = None, limit: int | None = None
    ) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._socket = socket.create_server((host, port), family=family, backlog=BACKLOG)
        self.places = Places(limit or open_limit())
        config = uvicorn.Config(
            app,
            http=guarded_protocol(self.places),
            loop="auto",  # uvloop where it is installed (not on Windows): a third less CPU a request
            ws="none",
            lifespan="off",
            interface="asgi3",
            log_config=None,
            access_log=False,
            proxy_headers=False,  # (the front reads X-Forwarded-For from the trusted proxy alone, checked)
            server_header=False,
            headers=[("server", "cribboard")],
            backlog=BACKLOG,
            timeout_keep_alive=KEEP_ALIVE_S,
            timeout_graceful_shutdown=int(REQUEST_S),
        )
        logging.getLogger("uvicorn.error").addFilter(_NOW_AND_THEN)  # (once: a filter added again is not doubled)
        config.load()  # (what it imports, imported here: the server thread says it is up with none to come)
        self._loop_factory = config.get_loop_factory()
        self._server = uvicorn.Server(config)
        self._on_stop = on_stop
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self.server_address = self._socket.getsockname()[:2]
        self._thread = threading.Thread(target=self._run, name="club-server", daemon=True)
        self._thread.start()
        self._ready.wait()

    def _run(self) -> None:
        async def serve() -> None:
            self._loop = asyncio.get_running_loop()
            self._ready.set()
            await self._server.serve(sockets=[self._socket])

        try:
            if sys.version_info >= (3, 11):
                with asyncio.Runner(loop_factory=self._loop_factory) as runner:
                    runner.run(serve())
            else:  # (Python 3.10's asyncio.run takes no loop: the standard one)
                asyncio.run(serve())
        except BaseException as e:  # (said, not raised into a thread nobody joins with its error)
            logging.getLogger("club").error("the server's loop ended: %s: %s", type(e).__name__, e)
        finally:
            self._ready.set()

    def shutdown(self) -> None:
        """Stop taking connections, end the live streams, let the requests under way finish (REQUEST_S at
        most, then they are cancelled), close every connection and wait for the loop."""
        loop = self._loop
        if loop is not None and self._on_stop is not None and self._thread.is_alive():
            loop.call_soon_threadsafe(self._on_stop)
        self._server.should_exit = True
        self._thread.join(REQUEST_S * 2 + 5)
        self._socket.close()

    def server_close(self) -> None:
        pass  # shutdown closed everything (the name serve_until_stopped calls, as on http.server's)
