# The club's server as a WSGI application: the boards' signed reports
# (cribboard.club.protocol), the live page of every board that reports
# (cribboard.web's page and API, read-only), and a health check.
#   POST /board/v1/...   a board's report -> the club's answer, always one
#   GET  /healthz        200 {"ok": true} when the database answers; else 503 with Retry-After
#   GET  /, /api/...     the live page (web.pages.page_answer)
#   GET  /night          a club night for a projector: the round, the games live, the standings
#   GET  /api/night      what it shows (cribboard.night.view), or 503 while the database is away
# Like the simulated board's page, it answers only to its own address (a
# DNS-rebinding page names another host), and takes a POST only from a
# board, never from a page elsewhere (a foreign Origin, a cross-site fetch,
# a body that is not JSON).
import json
import time
from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import Any

from cribboard.club.protocol import MAX_BODY, RETRY_AFTER_S, Club
from cribboard.store.engine import DbError
from cribboard.web import guard, pages
from cribcore.clubwire import BOARD, COUNTER, REQUEST_MS, SIGNATURE

StartResponse = Callable[..., Any]
# The statuses this app answers with (their reason phrases are the standard library's).
REASONS = frozenset((200, 400, 403, 404, 405, 409, 411, 413, 422, 429, 500, 503))
HEADERS = (BOARD, COUNTER, SIGNATURE)
BEGUN = "cribboard.begun"  # when the request's first byte came (time.time()), if the server says (club.server)
STALE_S = REQUEST_MS / 1000 - 1  # waited this long, a request's answer (a second's work) comes after its board gave up


class ClubApp:
    """The WSGI callable; `served` is the (host, port) it listens on, set once bound."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.served: tuple[str, int] = ("127.0.0.1", 0)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        status, body, kind, headers = self._answer(environ)
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        head = [("Content-Type", kind), ("Content-Length", str(len(data))), ("Cache-Control", "no-store")]
        start_response("%d %s" % (status, HTTPStatus(status).phrase), head + list(headers.items()))
        return [] if environ.get("REQUEST_METHOD") == "HEAD" else [data]  # HEAD: the head alone

    def _answer(self, environ: dict[str, Any]) -> tuple[int, Any, str, dict[str, str]]:
        method = environ.get("REQUEST_METHOD", "")
        path = environ.get("PATH_INFO", "")
        peer = environ.get("REMOTE_ADDR", "")
        host = environ.get("HTTP_HOST")
        if host is not None and not guard.host_allowed(host, self.served):
            return self._refused(
                peer, method, path, 403, "this server answers to its own address, not %s" % ascii(host[:60])
            )
        if method in ("GET", "HEAD"):
            if path == "/healthz":
                healthy = self.club.healthy(peer)
                if healthy is None:
                    return 429, {"error": "asked too often"}, pages.JSON, {"Retry-After": "1"}
                if healthy:
                    return 200, {"ok": True}, pages.JSON, {}
                return (
                    503,
                    {"ok": False, "error": "the database does not answer"},
                    pages.JSON,
                    {"Retry-After": str(RETRY_AFTER_S)},
                )
            if path == "/night":
                lang = environ.get("HTTP_ACCEPT_LANGUAGE", "")
                return 200, pages.html_page(pages.NIGHT_PAGE, lang), pages.HTML, {}
            if path == "/api/night":
                try:
                    return 200, self.club.night_page(), pages.JSON, {}
                except DbError:
                    return (
                        503,
                        {"error": "the database does not answer"},
                        pages.JSON,
                        {"Retry-After": str(RETRY_AFTER_S)},
                    )
            status, body, kind = pages.page_answer(
                self.club.boards, path, environ.get("QUERY_STRING", ""), environ.get("HTTP_ACCEPT_LANGUAGE", "")
            )
            return status, body, kind, {}
        if method != "POST":
            return 405, {"error": "GET the page, or POST a board's report"}, pages.JSON, {"Allow": "GET, HEAD, POST"}
        if "HTTP_ORIGIN" in environ or environ.get("HTTP_SEC_FETCH_SITE", "none") not in ("same-origin", "none"):
            return self._refused(peer, method, path, 403, "a board posts its own reports; a page does not")
        kind = environ.get("CONTENT_TYPE", "")
        if kind.split(";")[0].strip().lower() != "application/json":
            return self._refused(
                peer, method, path, 403, "a report is application/json, not %s" % ascii(kind[:40] or "no Content-Type")
            )
        size = environ.get("CONTENT_LENGTH", "")
        if not (size.isascii() and size.isdigit()):
            return self._refused(peer, method, path, 411, "a report says its Content-Length")
        if int(size) > MAX_BODY:
            return self._refused(peer, method, path, 413, "a report is at most %d bytes" % MAX_BODY)
        data = environ["wsgi.input"].read(int(size))
        if len(data) != int(size):
            return self._refused(peer, method, path, 400, "the body was cut short")
        begun = environ.get(BEGUN)
        if isinstance(begun, float) and time.time() - begun > STALE_S:  # its board has given up on it
            self.club.refused_here(
                peer,
                method,
                path,
                503,
                "it waited %.0f s for a thread: the server is overloaded" % (time.time() - begun),
            )
            return (
                503,
                {"error": "the club's server is overloaded; try again"},
                pages.JSON,
                {"Retry-After": str(RETRY_AFTER_S)},
            )
        headers = {name: environ.get("HTTP_" + name.upper().replace("-", "_"), "") for name in HEADERS}
        status, answer, signed = self.club.handle(method, path, headers, data, peer)
        return status, answer, pages.JSON, signed

    def _refused(
        self, peer: str, method: str, path: str, status: int, why: str
    ) -> tuple[int, Any, str, dict[str, str]]:
        self.club.refused_here(peer, method, path, status, why)
        return status, {"error": why}, pages.JSON, {}
