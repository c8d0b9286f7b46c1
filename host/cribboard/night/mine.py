# A player's own page, served by the club's server beside the projector's:
#   GET /me          the page (cribboard.web's me.html), opened from the code on the player's scorecard
#                    (/me#7KQ2M-XD9RT) or with the code typed; it shows what /api/night does, the player's
#                    own seat, game and line picked out
#   GET /api/me?code=CODE   whose code it is: {"player": their name as the night shows it, "night": id};
#                    404 for a code no one holds (voided, or mistyped), 400 for text that is no code
# A code is the only secret here, so guessing is what is limited: each address has an allowance of codes
# it may get wrong (a bucket refilled slowly), and once it is spent every code it asks about is a 429 until
# the bucket refills, a right one too. A player who mistypes a few times is not stopped; a script is.
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol
from urllib.parse import parse_qs

from cribboard.event import codes
from cribboard.event.roster import Roster
from cribboard.store import codes as kept
from cribboard.store import nights
from cribboard.store.engine import Database, DbError
from cribboard.web.http import HTML, RETRY_AFTER_S, Answer, Request, Routes, refused
from cribboard.web.pages import ME_PAGE, html_page

WRONG_BURST = 20  # codes an address may get wrong at once...
WRONG_PER_S = 1 / 30  # ... and one more every 30 s: 120 an hour, among 1,000 codes a hit about 1 in 10^10 an hour


class Allowance(Protocol):
    def spend(self, key: str) -> bool: ...
    def left(self, key: str) -> bool: ...


class PlayerPage:
    def __init__(self, db: Callable[[], AbstractContextManager[Database]], wrong: Allowance) -> None:
        """db(): a connection for one read; wrong: each address's allowance of codes it may get wrong."""
        self._db = db
        self._wrong = wrong

    def add_routes(self, routes: Routes) -> None:
        routes.get("/me", lambda request: Answer(200, html_page(ME_PAGE, request.header("accept-language")), HTML))
        routes.get("/api/me", self._api)

    def _api(self, request: Request) -> Answer:
        if not self._wrong.left(request.peer):
            return refused(429, "too many codes that are no one's from this address", {"Retry-After": "30"})
        typed = parse_qs(request.query).get("code", [""])[-1]
        code = codes.read(typed[:40])
        if code is None:
            self._wrong.spend(request.peer)
            return refused(400, "a code is ten letters and digits, as on the scorecard")
        try:
            with self._db() as db:
                held = kept.holder(db, code)
                if held is None:
                    self._wrong.spend(request.peer)
                    return refused(
                        404, "no player holds this code: check it against the scorecard, or ask the director"
                    )
                night, number = held
                roster = Roster({r["n"]: r["name"] for r in nights.players(db, night)})
        except DbError:
            return refused(503, "the database does not answer", {"Retry-After": str(RETRY_AFTER_S)})
        return Answer(200, {"player": roster.label(number), "night": night})
