# The boards' web page and its JSON API, on a local HTTP server: one
# simulated board (`cribboard sim`) or several real ones (`cribboard live`).
#   GET  /                    the boards, drawn from their layouts, live
#   GET  /api/state           {"boards": [scoreboard of each board (scoreboard.view), or {"error": ...}]}
#   GET  /api/leds?board=N    {"layout": name, "frame": n, "leds": [[r, g, b], ...]}
#   GET  /api/layout?board=N  the layout file, plus the board's buttons (none for a real board)
#   POST /api/press           {"button": "P1", "gesture": "tap" | "long", "board": N}
#   GET  /api/discard?cards=5H+5S+JD+4C+6H+KH&players=2&crib=dealer[&lang=es]
#                             the throws ranked (cribboard.discard.as_json; with lang, "said": the model in
#                             that language), or 400 {"error": ...}
#   GET  /api/messages?lang=es  {"lang": "es", "messages": {english: translated}} for the page's words
# A board here is any object with: layout (dict), buttons(), frames, leds(),
# press(button, gesture) -> the frame that shows it, and scoreboard() (a view
# dict, or None before the board has saved a state); N defaults to 0.
# The server answers only to its own address (a DNS-rebinding page names
# another host) and takes writes only from its own page: a foreign Origin,
# a body that is not JSON, or a Host that is not the served one gets 403.
import ipaddress
import json
import logging
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cribboard import i18n
from cribboard.errors import SimError
from cribboard.said import said

log = logging.getLogger("http")  # cribboard --verbose shows every request
PAGE = Path(__file__).resolve().parent / "sim.html"
MAX_BODY = 4096  # bytes of a request body
MAX_DEPTH = 8  # nesting of a request's JSON (a press is one flat object)
MAX_QUERY = 200  # characters of a discard question (six cards and two words take about 60)
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
JSON = "application/json"


def host_allowed(host_header: str, served: tuple[str, int]) -> bool:
    """Whether a request's Host (or an Origin's host and port) names this
    server: its port, and its own address, a loopback name, or any IP
    address when it serves all of them (0.0.0.0). Names other than
    localhost are refused: a DNS-rebinding page would bring its own."""
    name, sep, port = host_header.rpartition(":")
    if not sep or not port.isdigit() or int(port) != served[1]:
        return False
    name = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    if name in LOCAL_NAMES or name == served[0]:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return served[0] in ("0.0.0.0", "::")


def origin_allowed(origin: str, served: tuple[str, int]) -> bool:
    return origin.startswith("http://") and host_allowed(origin[len("http://") :], served)


def json_depth(data: bytes) -> int:
    """How deep a JSON text nests (brackets outside strings), without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for c in data:
        if in_string:
            if escaped:
                escaped = False
            elif c == 0x5C:  # backslash
                escaped = True
            elif c == 0x22:
                in_string = False
        elif c == 0x22:
            in_string = True
        elif c in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif c in (0x5D, 0x7D):
            depth -= 1
    return deepest


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


def page_answer(boards: list[Any], path: str, query: str, accept_language: str) -> tuple[int, Any, str]:
    """(status, body: bytes or a JSON value, content type) of a GET of the
    boards' page or its API; the same for the simulated board's server and
    the club's."""
    if path in ("/", "/index.html"):
        # The reader's language, from the browser (the page's selector may choose another, and keep it).
        lang = i18n.best_language(accept_language[:400])
        page = PAGE.read_bytes().replace(b'<html lang="en">', b'<html lang="%s">' % lang.encode(), 1)
        return 200, page, "text/html; charset=utf-8"
    if path == "/api/messages":
        lang = parse_qs(query).get("lang", ["en"])[0]
        lang = lang if lang in i18n.LANGUAGES else "en"
        tr = i18n.translation(lang)
        return 200, {"lang": lang, "messages": {m: tr.gettext(m) for m in _page_messages()}}, JSON
    if path == "/api/state":
        return 200, {"boards": [_scoreboard(b) for b in list(boards)]}, JSON
    if path == "/api/discard":
        try:
            return 200, _discard(query), JSON
        except ValueError as e:
            return 400, _discard_error(query, e), JSON
    if path in ("/api/leds", "/api/layout"):
        word = parse_qs(query).get("board", ["0"])[0]
        if not (word.isdigit() and word.isascii() and len(word) < 6 and int(word) < len(boards)):
            return 404, {"error": "no board %s (there are %d)" % (word[:8], len(boards))}, JSON
        b = boards[int(word)]
        if path == "/api/leds":
            return 200, {"layout": b.layout.get("name"), "frame": b.frames, "leds": b.leds()}, JSON
        return 200, dict(b.layout, buttons=b.buttons()), JSON
    return 404, {"error": "no such page: %s" % path[:60]}, JSON


def _scoreboard(board: Any) -> dict[str, Any]:
    try:
        view = board.scoreboard()
    except ValueError as e:
        return {"error": str(e)}
    return view if view is not None else {"error": "the board has not saved a game yet"}


def _discard(query: str, _: Callable[[str], str] = i18n.english) -> dict[str, Any]:
    """The discard advisor's answer to ?cards=...&players=N&crib=WHOSE;
    ValueError says what is wrong (in English, or in _'s language)."""
    from cribboard import discard as dc

    if len(query) > MAX_QUERY:
        raise ValueError(_("a discard question is at most %d characters") % MAX_QUERY)
    asked = parse_qs(query)
    players = asked.get("players", ["2"])[0]
    if players not in ("2", "3", "4"):
        raise ValueError(_("players is 2, 3 or 4, not %r") % players[:8])
    crib = asked.get("crib", [""])[0]
    if crib not in dc.CRIBS:
        raise ValueError(_("say whose crib it is: crib=%s") % "|".join(dc.CRIBS))
    text = asked.get("cards", [""])[0]
    answer = dc.as_json(dc.advise(dc.parse_hand(text, int(players), _), int(players), crib))
    lang = _asked_language(asked)
    if lang:
        answer["said"] = {"model": dc.model(int(players), crib, i18n.translation(lang).gettext)}
    return answer


def _asked_language(asked: dict[str, list[str]]) -> str | None:
    lang = asked.get("lang", [""])[0]
    return lang if lang in i18n.LANGUAGES else None


def _discard_error(query: str, error: ValueError) -> dict[str, Any]:
    """A discard question's error: in English, and with lang in that language too (asked again in it)."""
    reply: dict[str, Any] = {"error": str(error)}
    lang = _asked_language(parse_qs(query[:MAX_QUERY]))
    if lang:
        gettext = i18n.translation(lang).gettext
        try:
            _discard(query, gettext)
        except ValueError as again:
            reply["said"] = {"error": said(again, gettext)}
    return reply


_PAGE_WORDS: list[str] = []


def _page_messages() -> list[str]:
    """The words the page marks for translation (read from it once)."""
    if not _PAGE_WORDS:
        _PAGE_WORDS.extend(i18n.page_messages(PAGE.read_text(encoding="utf-8")))
    return _PAGE_WORDS
