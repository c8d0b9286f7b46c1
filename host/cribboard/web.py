# The boards' web page and its JSON API, on a local HTTP server: one
# simulated board (`cribboard sim`) or several real ones (`cribboard live`).
#   GET  /                    the boards, drawn from their layouts, live
#   GET  /api/state           {"boards": [scoreboard of each board (scoreboard.view), or {"error": ...}]}
#   GET  /api/leds?board=N    {"layout": name, "frame": n, "leds": [[r, g, b], ...]}
#   GET  /api/layout?board=N  the layout file, plus the board's buttons (none for a real board)
#   POST /api/press           {"button": "P1", "gesture": "tap" | "long", "board": N}
# A board here is any object with: layout (dict), buttons(), frames, leds(),
# press(button, gesture) and scoreboard() (a view dict, or None before the
# board has saved a state); N defaults to 0.
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cribboard.simulator import SimError

PAGE = Path(__file__).resolve().parent / "sim.html"


def make_server(boards: Any, host: str = "127.0.0.1", port: int = 8121) -> ThreadingHTTPServer:
    """Serve the page for one board or a list of them."""
    boards = boards if isinstance(boards, list) else [boards]

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format, *args):
            pass  # quiet: the terminal is for the board's own messages

        def reply(self, code, body, kind="application/json"):
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def board(self, query):
            """The board a request names (?board=N), or None after a 404."""
            word = parse_qs(query).get("board", ["0"])[0]
            if not (word.isdigit() and word.isascii() and int(word) < len(boards)):
                self.reply(404, {"error": "no board %s (there are %d)" % (word[:8], len(boards))})
                return None
            return boards[int(word)]

        def do_GET(self):
            url = urlsplit(self.path)
            if url.path in ("/", "/index.html"):
                self.reply(200, PAGE.read_bytes(), "text/html; charset=utf-8")
            elif url.path == "/api/state":
                self.reply(200, {"boards": [_scoreboard(b) for b in boards]})
            elif url.path in ("/api/leds", "/api/layout"):
                b = self.board(url.query)
                if b is None:
                    return
                if url.path == "/api/leds":
                    self.reply(200, {"layout": b.layout.get("name"), "frame": b.frames, "leds": b.leds()})
                else:
                    self.reply(200, dict(b.layout, buttons=b.buttons()))
            else:
                self.reply(404, {"error": "no such page: %s" % url.path})

        def do_POST(self):
            if urlsplit(self.path).path != "/api/press":
                self.reply(404, {"error": "no such endpoint: %s" % self.path})
                return
            try:
                size = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(min(size, 4096)) or b"{}")
                if not isinstance(body, dict):
                    raise ValueError("send a JSON object")
                index = body.get("board", 0)
                if type(index) is not int or not 0 <= index < len(boards):
                    raise ValueError("no board %r" % (index,))
                boards[index].press(body.get("button"), body.get("gesture", "tap"))
            except (ValueError, SimError) as e:
                self.reply(400, {"error": str(e)})
                return
            self.reply(200, {"ok": True, "frame": boards[index].frames})

    try:
        server = ThreadingHTTPServer((host, port), Handler)
    except OSError:
        server = ThreadingHTTPServer((host, 0), Handler)  # the port is taken: any free one
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _scoreboard(board: Any) -> dict[str, Any]:
    try:
        view = board.scoreboard()
    except ValueError as e:
        return {"error": str(e)}
    return view if view is not None else {"error": "the board has not saved a game yet"}
