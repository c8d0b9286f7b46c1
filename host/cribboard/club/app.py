# The club's server's answers, routed by one table
# (cribboard.web.http.Routes):
#   POST /board/v1/games, /board/v1/live   a board's report -> the club's answer, always one
#   GET  /healthz        200 {"ok": true} when the database answers; else 503 with Retry-After
#   GET  /, /api/...     the live page of every board that reports (cribboard.web.pages, read-only)
#   GET  /night, /api/night   the club night's projector page (cribboard.night.page), a tournament's too
#   GET  /me, /api/me, /api/me/card   a player's own page, opened with their code (cribboard.night.mine)
#   POST /api/me/result  a player's word on their game, from their page (the one write a page makes here)
#   GET  /api/night/events, /api/events   /api/night's and /api/state's data pushed as it changes
#                        (Server-Sent Events: cribboard.club.feeds)
# Like the simulated board's page, it answers only to its own address (a
# DNS-rebinding page names another host), and takes a POST only from a
# board, or from its own player's page (cribboard.web.guard: the one guard
# both servers use); each refusal here is logged and counted as the
# protocol's are.
import time
from collections.abc import Callable

from cribboard.club.protocol import MAX_BODY, Club, Report
from cribboard.club.ratelimit import Allowance
from cribboard.night import mine
from cribboard.night.director import Night
from cribboard.night.page import NightPage
from cribboard.tournament import claims as tournament_claims
from cribboard.tournament import view as tournament_view
from cribboard.web import guard, pages
from cribboard.web.http import RETRY_AFTER_S, Answer, Request, Routes, refused
from cribcore.clubwire import BOARD, COUNTER, GAMES, LIVE, REQUEST_MS, SIGNATURE

# The statuses this app answers with (their reason phrases are the standard library's).
REASONS = frozenset((200, 400, 403, 404, 405, 408, 409, 411, 413, 422, 429, 500, 503))
HEADERS = (BOARD, COUNTER, SIGNATURE)
STALE_S = REQUEST_MS / 1000 - 1  # waited this long, a request's answer (a second's work) comes after its board gave up


class ClubApp:
    """What the club's server answers (cribboard.club.front serves it); `served` is the (host, port) it
    listens on, set once bound; public, the origins a reverse proxy serves it at (web.guard.public_origin's):
    its own too."""

    def __init__(self, club: Club, public: tuple[str, ...] = ()) -> None:
        self.club = club
        self.served: tuple[str, int] = ("127.0.0.1", 0)
        self.public = public
        self.routes = Routes()
        self.routes.get("/healthz", self._health)
        pages.add_routes(self.routes, club.live.boards)
        room = NightPage(club.pool.db, club.live.views, club.clock, tournament_view.read, tournament_view.as_page)
        room.add_routes(self.routes)

        def night_shown(night_id: int) -> Night | None:
            shown, _tournament = room.read()
            return shown if shown is not None and shown.id == night_id else None

        mine.PlayerPage(
            club.pool.db,
            Allowance(mine.WRONG_PER_S, mine.WRONG_BURST, club.clock),
            lambda work: club.pool.with_first(lambda _db: None, lambda db, _none: work(db)),
            tournament_claims.claim,
            lambda: self.served,
            night_shown,
            public,
        ).add_routes(self.routes)
        self.routes.post(GAMES, lambda request: self._report(request, club.answer_games))
        self.routes.post(LIVE, lambda request: self._report(request, club.answer_live))

    def answer(self, request: Request) -> Answer:
        """The one answer to a request (its body, if any, given by request.read); a fault of this server's
        is a 500 and a line in the log, never an exception out of here."""
        try:
            answer = self.admission(request)
            if answer is None:
                answer = self.routes.answer(request)
                if request.method not in ("GET", "HEAD") and answer.status in (404, 405):  # no board's, nor a page's
                    self.refuse(request, answer)
                elif request.path == mine.RESULT and answer.status in (400, 403, 411, 413):  # (the guard's, a body's)
                    self.refuse(request, answer)
            return answer
        except Exception as e:
            return self.club.failed_here(request.peer, request.method, request.path, e)

    def admission(self, request: Request) -> Answer | None:
        """A refusal of a request that names another server (logged), or None: it is this server's."""
        answer = guard.host_refusal(request, self.served, self.public)
        return None if answer is None else self.refuse(request, answer)

    def stream_refusal(self, request: Request) -> Answer | None:
        """A refusal of a request for a live stream (cribboard.club.feeds), or None: it may be streamed."""
        answer = self.admission(request)
        if answer is None and request.method not in ("GET", "HEAD"):
            answer = self.refuse(request, refused(405, "%s takes GET, HEAD" % request.path, {"Allow": "GET, HEAD"}))
        return answer

    def refuse(self, request: Request, answer: Answer) -> Answer:
        """A refusal of this edge's, logged and counted against the address as the protocol's are."""
        self.club.refused_here(request.peer, request.method, request.path, answer.status, answer.body["error"])
        return answer

    def _health(self, request: Request) -> Answer:
        healthy = self.club.healthy(request.peer)
        if healthy is None:
            return refused(429, "asked too often", {"Retry-After": "1"})
        if healthy:
            return Answer(200, {"ok": True})
        return Answer(
            503, {"ok": False, "error": "the database does not answer"}, headers={"Retry-After": str(RETRY_AFTER_S)}
        )

    def _report(self, request: Request, take: Callable[[Report], Answer]) -> Answer:
        refusal = guard.write_refusal(request, self.served, page_writes=False, max_body=MAX_BODY)
        size = 0 if refusal is not None else int(request.header("content-length"))
        data = request.read(size)
        if refusal is None and len(data) != size:
            refusal = refused(400, "the body was cut short")
        if refusal is not None:
            return self.refuse(request, refusal)
        if request.begun is not None and time.time() - request.begun > STALE_S:  # its board has given up on it
            waited = time.time() - request.begun
            self.club.refused_here(
                request.peer, request.method, request.path, 503, "it waited %.0f s for a thread: overloaded" % waited
            )
            return refused(503, "the club's server is overloaded; try again", {"Retry-After": str(RETRY_AFTER_S)})
        return take(Report(request.path, {name: request.header(name) for name in HEADERS}, data, request.peer))
