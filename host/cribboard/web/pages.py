# The boards' page and its JSON API, the same for the simulated board's
# server, `cribboard live` and the club's:
#   GET  /                    the boards, drawn from their layouts, live
#   GET  /api/state           {"boards": [scoreboard of each board (scoreboard.view), or {"error": ...}]}
#   GET  /api/leds?board=N    {"layout": name, "frame": n, "leds": [[r, g, b], ...]}
#   GET  /api/layout?board=N  the layout file, plus the board's buttons (none for a real board)
#   GET  /api/discard?cards=5H+5S+JD+4C+6H+KH&players=2&crib=dealer[&lang=es]
#                             the throws ranked (cribboard.hands.discard.as_json; with lang, "said": the model
#                             in that language), or 400 {"error": ...}
#   GET  /api/messages?lang=es  {"lang": "es", "messages": {english: translated}} for the page's words
# A board here is any object with: layout (dict), buttons(), frames, leds(),
# press(button, gesture) -> the frame that shows it, and scoreboard() (a view
# dict, or None before the board has saved a state); N defaults to 0.
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from cribboard.text import game_words, i18n
from cribboard.text.error_words import said
from cribboard.web.http import HTML, SCRIPT, Answer, Request, Routes, refused

PAGE = Path(__file__).resolve().parent / "sim.html"
NIGHT_PAGE = Path(__file__).resolve().parent / "night.html"  # the club's projector page (cribboard.club.app)
ME_PAGE = Path(__file__).resolve().parent / "me.html"  # a player's own page (cribboard.night.mine)
SHARED_SCRIPT = Path(__file__).resolve().parent / "page.js"  # what the club's pages share: GET /page.js
PAGES = (PAGE, NIGHT_PAGE, ME_PAGE)  # every page whose words /api/messages translates
MAX_QUERY = 200  # characters of a discard question (six cards and two words take about 60)


def add_routes(routes: Routes, boards: list[Any]) -> None:
    """The boards' page and its API (the GETs above), for the simulated board's server and the club's."""

    def page(request: Request) -> Answer:
        return Answer(200, html_page(PAGE, request.header("accept-language")), HTML)

    def messages(request: Request) -> Answer:
        lang = parse_qs(request.query).get("lang", ["en"])[0]
        lang = lang if lang in i18n.LANGUAGES else "en"
        tr = i18n.translation(lang)
        return Answer(200, {"lang": lang, "messages": {m: tr.gettext(m) for m in _page_messages()}})

    def state(_request: Request) -> Answer:
        return Answer(200, {"boards": [_scoreboard(b) for b in list(boards)]})

    def discard(request: Request) -> Answer:
        try:
            return Answer(200, _discard(request.query))
        except ValueError as e:
            return Answer(400, _discard_error(request.query, e))

    def board(request: Request) -> Any:
        word = parse_qs(request.query).get("board", ["0"])[0]
        if not (word.isdigit() and word.isascii() and len(word) < 6 and int(word) < len(boards)):
            return refused(404, "no board %s (there are %d)" % (word[:8], len(boards)))
        return boards[int(word)]

    def leds(request: Request) -> Answer:
        b = board(request)
        if isinstance(b, Answer):
            return b
        return Answer(200, {"layout": b.layout.get("name"), "frame": b.frames, "leds": b.leds()})

    def layout(request: Request) -> Answer:
        b = board(request)
        return b if isinstance(b, Answer) else Answer(200, dict(b.layout, buttons=b.buttons()))

    def script(_request: Request) -> Answer:
        return Answer(200, SHARED_SCRIPT.read_bytes(), SCRIPT)

    for path, handler in (
        ("/", page),
        ("/page.js", script),
        ("/index.html", page),
        ("/api/messages", messages),
        ("/api/state", state),
        ("/api/discard", discard),
        ("/api/leds", leds),
        ("/api/layout", layout),
    ):
        routes.get(path, handler)


def html_page(page: Path, accept_language: str) -> bytes:
    """A page in the reader's language, from the browser (the page's selector may choose another, and keep
    it)."""
    lang = i18n.best_language(accept_language[:400])
    return page.read_bytes().replace(b'<html lang="en">', b'<html lang="%s">' % lang.encode(), 1)


def _scoreboard(board: Any) -> dict[str, Any]:
    try:
        view = board.scoreboard()
    except ValueError as e:
        return {"error": str(e)}
    return view if view is not None else {"error": "the board has not saved a game yet"}


def _discard(query: str, _: Callable[[str], str] = i18n.english) -> dict[str, Any]:
    """The discard advisor's answer to ?cards=...&players=N&crib=WHOSE;
    ValueError says what is wrong (in English, or in _'s language)."""
    from cribboard.hands import discard as dc

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
        for page in PAGES:
            _PAGE_WORDS.extend(m for m in i18n.page_messages(page.read_text(encoding="utf-8")) if m not in _PAGE_WORDS)
        _PAGE_WORDS.extend(game_words.ROUND_NAMES)  # (the bracket's rounds, named by the server, said by the page)
    return _PAGE_WORDS
