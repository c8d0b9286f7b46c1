# The night's projector page, served by the club's server for the night:
#   GET /night       the page (cribboard.web's night.html), in the reader's language
#   GET /api/night   what it shows (cribboard.night.view): the round, the games live, the standings; a 503
#                    with Retry-After while the database is away. ?tournament=ID: that tournament's (a
#                    second projector for a consolation beside the main event), where the reader knows them
# The night is read from the database at most once a second, whatever the
# number of pages asking (a projector, the players' phones); the boards'
# live scores come from the server's own page of boards. What is read and
# shown may be more than the night's (a tournament's: its reader and view
# are given).
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any
from urllib.parse import parse_qs

from cribboard.night import director
from cribboard.night.view import as_page
from cribboard.store.engine import Database, DbError
from cribboard.store.recent import Recent
from cribboard.web.http import HTML, RETRY_AFTER_S, Answer, Request, Routes, refused
from cribboard.web.pages import NIGHT_PAGE, html_page

READ_S = 1.0  # how long the night read is shown before it is read again (a result entered is that late)
_KEPT = 8  # what is read for this many ?tournament= at once (more, and the reads kept are let go)


class NightPage:
    def __init__(
        self,
        db: Callable[[], AbstractContextManager[Database]],
        live: Callable[[], dict[str, Any]],
        clock: Callable[[], float],
        read: Callable[[Database, int | None], Any] | None = None,
        show: Callable[[Any, dict[str, Any]], dict[str, Any]] = as_page,
    ) -> None:
        """db(): a connection for one read; live(): each reporting board's scoreboard by its id; read(db,
        which): what the page shows, read (which: a tournament the reader asked for, or None); show(what was
        read, live): the page's data."""
        self._db = db
        self._live = live
        self._read = read or (lambda db, _which: director.latest(db))
        self._show = show
        self._clock = clock
        self._reads: dict[int | None, Recent[Any]] = {}

    def data(self, which: int | None = None) -> dict[str, Any]:
        """The night under way (or the last one), or the tournament asked for, as the page shows it; DbError
        if the database does not answer."""
        return self._show(self.read(which), self._live())

    def read(self, which: int | None = None) -> Any:
        """What the page shows, as read (the reader's value: a second old at most); DbError if the database
        does not answer."""

        def read() -> Any:
            with self._db() as db:
                return self._read(db, which)

        if which not in self._reads and len(self._reads) >= _KEPT:
            self._reads.clear()  # (a reader asking for many cannot make the server keep them all)
        recent = self._reads.setdefault(which, Recent(READ_S, self._clock))
        return recent.get(read)

    def add_routes(self, routes: Routes) -> None:
        routes.get(
            "/night", lambda request: Answer(200, html_page(NIGHT_PAGE, request.header("accept-language")), HTML)
        )
        routes.get("/api/night", self._api)

    def _api(self, request: Request) -> Answer:
        asked = parse_qs(request.query).get("tournament", [""])[-1]
        if asked and not (asked.isdigit() and asked.isascii() and 0 < len(asked) < 10):
            return refused(400, "tournament is a tournament's id")
        try:
            return Answer(200, self.data(int(asked) if asked else None))
        except DbError:
            return refused(503, "the database does not answer", {"Retry-After": str(RETRY_AFTER_S)})
