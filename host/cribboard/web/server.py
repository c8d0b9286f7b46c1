# The boards' local HTTP server: one simulated board (`cribboard sim`) or
# several real ones (`cribboard live`). GETs are the page and its API
# (cribboard.web.pages); the one POST is a press:
#   POST /api/press           {"button": "P1", "gesture": "tap" | "long", "board": N}
# A foreign Origin, a body that is not JSON, or a Host that is not the
# served one gets 403 (cribboard.web.guard).
import logging
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from cribboard.errors import SimError
from cribboard.web.guard import MAX_BODY, host_refusal, json_object
from cribboard.web.http import Answer, Request, Routes, refused
from cribboard.web.pages import add_routes

log = logging.getLogger("http")  # cribboard --verbose shows every request


class Server(ThreadingHTTPServer):
    """The pages' server: a client that goes away mid-answer (a reload, a
    closed tab) is no error to print; anything else is, as ever."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def routes_for(boards: list[Any], served: Callable[[], tuple[str, int]]) -> Routes:
    """The page and its API (cribboard.web.pages), and the press."""
    routes = Routes()
    add_routes(routes, boards)

    def press(request: Request) -> Answer:
        body = json_object(request, served(), MAX_BODY)
        if isinstance(body, Answer):
            return body
        try:
            index = body.get("board", 0)
            if type(index) is not int or not 0 <= index < len(boards):
                raise ValueError("no board %r" % (index,))
            frame = boards[index].press(body.get("button"), body.get("gesture", "tap"))
        except (ValueError, SimError) as e:
            return refused(400, str(e))
        return Answer(200, {"ok": True, "frame": frame})

    routes.post("/api/press", press)
    return routes


def make_server(boards: Any, host: str = "127.0.0.1", port: int = 8121, fallback: bool = False) -> ThreadingHTTPServer:
    """Serve the page for one board or a list of them (a list may grow as
    boards appear). fallback: if the port is taken, any free one (the
    simulated board's, which says where it is); else OSError."""
    boards = boards if isinstance(boards, list) else [boards]
    served: list[tuple[str, int]] = []
    routes = routes_for(boards, lambda: served[0])

    class Handler(BaseHTTPRequestHandler):
        timeout = 10  # seconds a client may take to send its request: a slow one does not hold a thread

        def log_message(self, format: str, *args: Any) -> None:
            log.debug("%s %s", self.address_string(), format % args)  # quiet unless --verbose

        def answer(self) -> None:
            url = urlsplit(self.path)
            request = Request(
                self.command,
                url.path,
                url.query,
                {name.lower(): value for name, value in self.headers.items()},
                self.client_address[0],
                self.rfile.read,
            )
            try:
                answer = host_refusal(request, served[0]) or routes.answer(request)
            except OSError:
                self.close_connection = True  # the client went away mid-request
                return
            data = answer.data()
            self.send_response(answer.status)
            for name, value in answer.head(data):
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)  # a browser gone mid-answer ends the request quietly (Server.handle_error)
            if answer.close:
                self.close_connection = True

        do_GET = do_HEAD = do_POST = answer

    try:
        server = Server((host, port), Handler)
    except OSError:
        if not fallback:
            raise
        server = Server((host, 0), Handler)  # the port is taken: any free one
    address: Any = server.server_address
    served.append((str(address[0]), int(address[1])))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
