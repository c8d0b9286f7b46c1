# A request and its answer as the pages' two servers both see them (the
# simulated board's and `cribboard live`'s on the standard library, the
# club's on uvicorn), and the one table that routes a request to what
# answers it. Each server turns its own request into a Request, asks its
# Routes, and writes the Answer; what is asked and answered is the same.
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

JSON = "application/json"
HTML = "text/html; charset=utf-8"
SCRIPT = "text/javascript; charset=utf-8"
RETRY_AFTER_S = 5  # what an answer that asks a client to come back later (503, Retry-After) asks it to wait


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: str
    headers: Mapping[str, str]  # names in lower case
    peer: str = ""  # the client's address
    read: Callable[[int], bytes] = lambda n: b""  # the body's next n bytes (no more than Content-Length says)
    begun: float | None = None  # when its first byte came (time.time()), if the server says

    def header(self, name: str, default: str = "") -> str:
        return self.headers.get(name.lower(), default)


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any  # bytes as they are, or a value sent as JSON
    kind: str = JSON
    headers: Mapping[str, str] = field(default_factory=dict)
    close: bool = False  # the connection goes after it (a client that sent what it should not)

    def data(self) -> bytes:
        return self.body if isinstance(self.body, bytes) else json.dumps(self.body).encode()

    def status_line(self) -> str:
        return "%d %s" % (self.status, HTTPStatus(self.status).phrase)

    def head(self, data: bytes) -> list[tuple[str, str]]:
        """Every header of the answer whose body is data."""
        return [
            ("Content-Type", self.kind),
            ("Content-Length", str(len(data))),
            ("Cache-Control", "no-store"),
            *self.headers.items(),
        ]


def refused(status: int, why: str, headers: Mapping[str, str] | None = None, close: bool = False) -> Answer:
    return Answer(status, {"error": why}, JSON, headers or {}, close)


Handler = Callable[[Request], Answer]


class Routes:
    """Which handler answers which method and path: a path no one answers is a 404, a method its path does
    not take a 405 that says the ones it does. A GET route answers HEAD too (the server sends the head)."""

    def __init__(self) -> None:
        self._table: dict[str, dict[str, Handler]] = {}

    def add(self, method: str, path: str, handler: Handler) -> None:
        methods = self._table.setdefault(path, {})
        if method in methods:
            raise ValueError("%s %s has a handler already" % (method, path))
        methods[method] = handler
        if method == "GET":
            methods["HEAD"] = handler

    def get(self, path: str, handler: Handler) -> None:
        self.add("GET", path, handler)

    def post(self, path: str, handler: Handler) -> None:
        self.add("POST", path, handler)

    def answer(self, request: Request) -> Answer:
        methods = self._table.get(request.path)
        if methods is None:
            return refused(404, "no such page: %s" % ascii(request.path[:60]))  # (quoted: it may be logged)
        handler = methods.get(request.method)
        if handler is None:
            allowed = ", ".join(sorted(methods))
            return refused(405, "%s takes %s" % (ascii(request.path[:60]), allowed), {"Allow": allowed})
        return handler(request)
