# The simulated board's web page and its JSON API, on a local HTTP server.
#   GET  /            the board, drawn from the layout, live
#   GET  /api/leds    {"layout": name, "frame": n, "leds": [[r, g, b], ...]}
#   GET  /api/layout  the layout file, plus the board's buttons
#   POST /api/press   {"button": "P1", "gesture": "tap" | "long"}
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from cribboard.simulator import SimError

PAGE = Path(__file__).resolve().parent / "sim.html"


def make_server(sim, host="127.0.0.1", port=8121):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass  # quiet: the terminal is for the board's own messages

        def reply(self, code, body, kind="application/json"):
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path in ("/", "/index.html"):
                self.reply(200, PAGE.read_bytes(), "text/html; charset=utf-8")
            elif self.path == "/api/leds":
                self.reply(200, {"layout": sim.layout.get("name"), "frame": sim.frames, "leds": sim.leds()})
            elif self.path == "/api/layout":
                self.reply(200, dict(sim.layout, buttons=sim.buttons()))
            else:
                self.reply(404, {"error": "no such page: %s" % self.path})

        def do_POST(self):
            if self.path != "/api/press":
                self.reply(404, {"error": "no such endpoint: %s" % self.path})
                return
            try:
                size = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(min(size, 4096)) or b"{}")
                if not isinstance(body, dict):
                    raise ValueError("send a JSON object")
                sim.press(body.get("button"), body.get("gesture", "tap"))
            except (ValueError, SimError) as e:
                self.reply(400, {"error": str(e)})
                return
            self.reply(200, {"ok": True, "frame": sim.frames})

    try:
        server = ThreadingHTTPServer((host, port), Handler)
    except OSError:
        server = ThreadingHTTPServer((host, 0), Handler)  # the port is taken: any free one
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
