# A player's own page, served by the club's server beside the projector's:
#   GET /me          the page (cribboard.web's me.html), opened from the code on the player's scorecard
#                    (/me#7KQ2M-XD9RT) or with the code typed; it shows what /api/night does, the player's
#                    own seat, game and line picked out
#   GET /api/me?code=CODE   whose code it is: {"player": their name as the night shows it, "night": id};
#                    404 for a code no one holds (voided, or mistyped), 400 for text that is no code
#   GET /api/me/card?code=CODE   the player's scorecard so far: {"player", "lines": [{"round", "table",
#                    "opponent" (null: a bye), "won", "score", "against", "game_points", "spread"}, ...]}
#   POST /api/me/result  {"code", "key", "scores": [theirs, their opponent's] or null (a refusal of the
#                    opponent's claim), "game": a playoff match's game as shown, "target": 121 or 61}: the
#                    player's word on their game in play (cribboard.event.claims); 200 {"ok": true}, or a
#                    refusal with the reason's "kind" (the page says it in the reader's language): 409 ended,
#                    in (already), not_in_play, unknown; 422 not_a_game; 400 a body that is not one. A word
#                    sent again with its key (a phone back on the network) is taken once.
# A code is the only secret here, so guessing is what is limited: each address has an allowance of codes
# it may get wrong (a bucket refilled slowly), and once it is spent every code it asks about is a 429 until
# the bucket refills, a right one too. A player who mistypes a few times is not stopped; a script is.
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol
from urllib.parse import parse_qs

from cribboard.event import codes
from cribboard.event import refusals as why
from cribboard.event.claims import Word
from cribboard.event.roster import Roster
from cribboard.night import director
from cribboard.night.director import Night
from cribboard.store import codes as kept
from cribboard.store import nights
from cribboard.store.engine import Database, DbError
from cribboard.web import guard
from cribboard.web.http import HTML, RETRY_AFTER_S, Answer, Request, Routes, refused
from cribboard.web.pages import ME_PAGE, html_page

WRONG_BURST = 20  # codes an address may get wrong at once...
WRONG_PER_S = 1 / 30  # ... and one more every 30 s: 120 an hour, among 1,000 codes a hit about 1 in 10^10 an hour


CLAIM_BODY = 512  # bytes of a claim's body (a flat object of five short fields)
KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")  # a phone's key for one word (the page's: 32 hex digits)
RESULT = "/api/me/result"
TARGETS = (121, 61)
CARD = ("round", "table", "opponent", "won", "score", "against", "game_points", "spread")  # a scorecard line
# The kind of a refusal, as the page names it (an event's refusals say it in the server's language).
KINDS: tuple[tuple[type[why.EventError], str, int], ...] = (
    (why.Ended, "ended", 409),
    (why.Settled, "in", 409),
    (why.NotAGame, "not_a_game", 422),
    (why.Unknown, "unknown", 409),
    (why.EventError, "not_in_play", 409),
)


class Allowance(Protocol):
    def spend(self, key: str) -> bool: ...
    def left(self, key: str) -> bool: ...


Claimant = Callable[[Database, int, Word], None]
Writer = Callable[[Callable[[Database], None]], None]


class PlayerPage:
    def __init__(
        self,
        db: Callable[[], AbstractContextManager[Database]],
        wrong: Allowance,
        write: Writer,
        claim: Claimant,
        served: Callable[[], tuple[str, int]],
        night: Callable[[int], Night | None] = lambda _id: None,
        public: tuple[str, ...] = (),
    ) -> None:
        """db(): a connection for one read; wrong: each address's allowance of codes it may get wrong;
        write(work): work(db) done as the server's writes are; claim(db, night, word): a player's word on their
        game (cribboard.tournament.claims'); served(): the (host, port) the server listens on; night(id): that
        night as the room's page last read it (None: the page shows another); public: the origins a reverse
        proxy serves this server at (web.guard.public_origin's), whose pages' writes are this server's."""
        self._db = db
        self._wrong = wrong
        self._write = write
        self._claim = claim
        self._served = served
        self._night = night
        self._public = public

    def add_routes(self, routes: Routes) -> None:
        routes.get("/me", lambda request: Answer(200, html_page(ME_PAGE, request.header("accept-language")), HTML))
        routes.get("/api/me", self._api)
        routes.get("/api/me/card", self._card)
        routes.post(RESULT, self._result)

    def _holder(self, db: Database, request: Request, typed: str) -> tuple[int, int] | Answer:
        """The night and number of the player whose code was typed, or the refusal (a wrong code spends the
        address's allowance; once it is spent, every code is refused until it refills)."""
        if not self._wrong.left(request.peer):
            return refused(429, "too many codes that are no one's from this address", {"Retry-After": "30"})
        code = codes.read(typed[:40])
        if code is None:
            self._wrong.spend(request.peer)
            return refused(400, "a code is ten letters and digits, as on the scorecard")
        held = kept.holder(db, code)
        if held is None:
            self._wrong.spend(request.peer)
            return refused(404, "no player holds this code: check it against the scorecard, or ask the director")
        return held

    def _with_holder(self, request: Request, then: Callable[[Database, int, int], Answer]) -> Answer:
        """then(db, night, number) for the player whose code is in the query, or the refusal (a 503 while the
        database does not answer)."""
        typed = parse_qs(request.query).get("code", [""])[-1]
        try:
            with self._db() as db:
                held = self._holder(db, request, typed)
                return held if isinstance(held, Answer) else then(db, *held)
        except DbError:
            return refused(503, "the database does not answer", {"Retry-After": str(RETRY_AFTER_S)})

    def _api(self, request: Request) -> Answer:
        def whose(db: Database, night: int, number: int) -> Answer:
            roster = Roster({r["n"]: r["name"] for r in nights.players(db, night)})
            return Answer(200, {"player": roster.label(number), "night": night})

        return self._with_holder(request, whose)

    def _card(self, request: Request) -> Answer:
        def card(db: Database, night_id: int, number: int) -> Answer:
            night = self._night(night_id) or director.load(db, night_id)  # (another night: read it here)
            row = next((r for r in night.standings() if r.number == number), None)
            lines = [] if row is None else row.lines
            return Answer(
                200,
                {
                    "player": night.label(number),
                    "lines": [{k: ln.as_dict()[k] for k in CARD} for ln in lines],
                },
            )

        return self._with_holder(request, card)

    def _result(self, request: Request) -> Answer:
        body = guard.json_object(request, self._served(), CLAIM_BODY, self._public)
        if isinstance(body, Answer):
            return body
        word = _word(body)
        if isinstance(word, Answer):
            return word
        typed, scores, key, game, target = word

        def work(db: Database) -> None:
            held = self._holder(db, request, typed)
            if isinstance(held, Answer):
                raise _Refused(held)
            self._claim(db, held[0], Word(held[1], scores, key, game, target))

        try:
            self._write(work)
        except _Refused as e:
            return e.answer
        except why.EventError as e:
            kind, status = next((k, s) for cls, k, s in KINDS if isinstance(e, cls))
            return Answer(status, {"error": str(e), "kind": kind})
        except DbError:
            return refused(503, "the database does not answer", {"Retry-After": str(RETRY_AFTER_S)})
        return Answer(200, {"ok": True})


class _Refused(Exception):
    def __init__(self, answer: Answer) -> None:
        self.answer = answer


def _word(body: dict[str, Any]) -> tuple[str, tuple[int, int] | None, str, int | None, int] | Answer:
    """A claim's fields, checked for their form (the event checks what they say), or a 400."""
    code, key, scores = body.get("code"), body.get("key"), body.get("scores")
    game, target = body.get("game"), body.get("target", 121)
    if not isinstance(code, str):
        return refused(400, "code: the player's code, as text")
    if not isinstance(key, str) or not KEY.fullmatch(key):
        return refused(400, "key: 8 to 64 letters, digits, - or _, new for each word")
    if scores is not None and not (
        isinstance(scores, list) and len(scores) == 2 and all(type(s) is int and 0 <= s <= 121 for s in scores)
    ):
        return refused(400, "scores: [yours, your opponent's], each 0 to 121, or null to refuse your opponent's")
    if game is not None and not (type(game) is int and 1 <= game <= 99):
        return refused(400, "game: a match's game as the page shows it (1 to 99), or null")
    if target not in TARGETS or type(target) is not int:
        return refused(400, "target: 121 or 61")
    return code, None if scores is None else (scores[0], scores[1]), key, game, target
