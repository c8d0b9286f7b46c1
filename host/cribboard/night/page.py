# The night's projector page, served by the club's server for the night:
#   GET /night       the page (cribboard.web's night.html), in the reader's language
#   GET /api/night   what it shows (cribboard.night.view): the round, the games live, the standings; a 503
#                    with Retry-After while the database is away
# The night is read from the database at most once a second, whatever the
# number of pages asking (a projector, the players' phones); the boards'
# live scores come from the server's own page of boards. What is read and
# shown may be more than the night's (a tournament's: its reader and view
# are given).
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from cribboard.night import director
from cribboard.night.view import as_page
from cribboard.store.engine import Database, DbError
from cribboard.store.recent import Recent
from cribboard.web.http import HTML, RETRY_AFTER_S, Answer, Request, Routes, refused
from cribboard.web.pages import NIGHT_PAGE, html_page

READ_S = 1.0  # how long the night read is shown before it is read again (a result entered is that late)


class NightPage:
    def __init__(
        self,
        db: Callable[[], AbstractContextManager[Database]],
        live: Callable[[], dict[str, Any]],
        clock: Callable[[], float],
        read: Callable[[Database], Any] = director.latest,
        show: Callable[[Any, dict[str, Any]], dict[str, Any]] = as_page,
    ) -> None:
        """db(): a connection for one read; live(): each reporting board's scoreboard by its id; read(db):
        what the page shows, read; show(what was read, live): the page's data."""
        self._db = db
        self._live = live
        self._read = read
        self._show = show
        self._night: Recent[Any] = Recent(READ_S, clock)

    def data(self) -> dict[str, Any]:
        """The night under way (or the last one) as the page shows it; DbError if the database does not
        answer."""

        def read() -> Any:
            with self._db() as db:
                return self._read(db)

        return self._show(self._night.get(read), self._live())

    def add_routes(self, routes: Routes) -> None:
        routes.get(
            "/night", lambda request: Answer(200, html_page(NIGHT_PAGE, request.header("accept-language")), HTML)
        )
        routes.get("/api/night", self._api)

    def _api(self, _request: Request) -> Answer:
        try:
            return Answer(200, self.data())
        except DbError:
            return refused(503, "the database does not answer", {"Retry-After": str(RETRY_AFTER_S)})
