# The boards' local HTTP server: one simulated board (`cribboard sim`) or
# several real ones (`cribboard live`). GETs are the page and its API
# (cribboard.web.pages); the one POST is a press:
#   POST /api/press           {"button": "P1", "gesture": "tap" | "long", "board": N}
# A foreign Origin, a body that is not JSON, or a Host that is not the
# served one gets 403 (cribboard.web.guard).
import json
import logging
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from cribboard.errors import SimError
from cribboard.records import json_depth
from cribboard.web.guard import MAX_BODY, MAX_DEPTH, host_allowed, origin_allowed
from cribboard.web.pages import page_answer

log = logging.getLogger("http")  # cribboard --verbose shows every request


class Server(ThreadingHTTPServer):
    """The pages' server: a client that goes away mid-answer (a reload, a
    closed tab) is no error to print; anything else is, as ever."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(boards: Any, host: str = "127.0.0.1", port: int = 8121, fallback: bool = False) -> ThreadingHTTPServer:
    """Serve the page for one board or a list of them (a list may grow as
    boards appear). fallback: if the port is taken, any free one (the
    simulated board's, which says where it is); else OSError."""
    boards = boards if isinstance(boards, list) else [boards]

    class Handler(BaseHTTPRequestHandler):
        timeout = 10  # seconds a client may take to send its request: a slow one does not hold a thread

        def log_message(self, format: str, *args: Any) -> None:
            log.debug("%s %s", self.address_string(), format % args)  # quiet unless --verbose

        def served(self) -> tuple[str, int]:
            address: Any = self.server.server_address
            return str(address[0]), int(address[1])

        def refused(self, why: str) -> None:
            self.reply(403, {"error": why})
            self.close_connection = True

        def host_ok(self) -> bool:
            """The Host names this server (or there is none: not a browser)."""
            host = self.headers.get("Host")
            if host is None or host_allowed(host, self.served()):
                return True
            self.refused("this server answers to %s:%d, not %s" % (self.served() + (host[:60],)))
            return False

        def reply(
            self, code: int, body: Any, kind: str = "application/json", headers: dict[str, str] | None = None
        ) -> None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(code)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)  # a browser gone mid-answer ends the request quietly (Server.handle_error)

        def do_GET(self):
            if not self.host_ok():
                return
            url = urlsplit(self.path)
            self.reply(*page_answer(boards, url.path, url.query, self.headers.get("Accept-Language", "")))

        def do_POST(self):
            if not self.host_ok():
                return
            origin = self.headers.get("Origin")
            if origin is not None and not origin_allowed(origin, self.served()):
                self.refused("presses come only from this board's own page, not from %s" % origin[:60])
                return
            if self.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
                self.refused("presses come only from this board's own page")
                return
            kind = self.headers.get("Content-Type", "")
            if kind.split(";")[0].strip().lower() != "application/json":
                self.refused("send the press as application/json, not %s" % (kind[:40] or "no Content-Type"))
                return
            path = urlsplit(self.path).path
            if path != "/api/press":
                self.reply(404, {"error": "no such endpoint: %s" % self.path[:60]})
                return
            size = self.headers.get("Content-Length", "")
            if not (size.isascii() and size.isdigit()) or int(size) > MAX_BODY:
                why = "a press is a JSON object of at most %d bytes, with its Content-Length" % MAX_BODY
                self.reply(413 if size.isdigit() else 411, {"error": why})
                self.close_connection = True
                return
            try:
                data = self.rfile.read(int(size))
                if json_depth(data) > MAX_DEPTH:
                    raise ValueError("the JSON nests deeper than %d" % MAX_DEPTH)
                body = json.loads(data or b"{}")
                if not isinstance(body, dict):
                    raise ValueError("send a JSON object")
                index = body.get("board", 0)
                if type(index) is not int or not 0 <= index < len(boards):
                    raise ValueError("no board %r" % (index,))
                frame = boards[index].press(body.get("button"), body.get("gesture", "tap"))
            except (ValueError, RecursionError, SimError) as e:
                self.reply(400, {"error": str(e)})
                return
            except OSError:
                self.close_connection = True  # the client went away mid-request
                return
            self.reply(200, {"ok": True, "frame": frame})

    try:
        server = Server((host, port), Handler)
    except OSError:
        if not fallback:
            raise
        server = Server((host, 0), Handler)  # the port is taken: any free one
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
