# The league table, every game the boards synced: per player, game points
# (2 a win, 3 a skunk win, from the core's ACC scheme, whatever scheme the
# board played) and the spread (the winner gains, and each loser loses, the
# distance from the loser's score to the game's end), ranked in the league's
# order (cribboard.ranking.LEAGUE: spread before games won, unlike a night's).
# Cribbage games only.
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from cribboard.errors import UsageError
from cribboard.ranking import LEAGUE
from cribboard.text.i18n import _
from cribcore.match import ACC, game_points


@dataclass
class Played:
    """One finished cribbage game, with who sat at each track."""

    id: int
    board: str
    target: int
    scores: list[int]
    winner: int
    skunk: int
    when: float  # Unix seconds: when it ended, or when it was synced if the board never knew the time
    names: list[str] = field(default_factory=list)


def _when(ended_at: float | None, synced_at: str) -> float:
    if ended_at is not None:
        return float(ended_at)
    try:
        return datetime.fromisoformat(synced_at).timestamp()
    except ValueError:
        return 0.0


def played(db: Any, since: float | None = None, until: float | None = None, board: str | None = None) -> list[Played]:
    """The finished cribbage games in [since, until), of one board (an id
    prefix) or all, oldest first."""
    import json

    from cribboard.store.results import finished_cribbage_seats

    games: dict[int, Played] = {}
    for r in finished_cribbage_seats(db, board):
        g = games.get(r["id"])
        if g is None:
            g = games[r["id"]] = Played(
                r["id"],
                r["board"],
                r["target"],
                json.loads(r["scores"]),
                r["winner"],
                r["skunk"] or 0,
                _when(r["ended_at"], r["synced_at"]),
            )
        g.names.append(r["name"])
    out = [g for g in games.values() if (since is None or g.when >= since) and (until is None or g.when < until)]
    return sorted(out, key=lambda g: (g.when, g.id))


def _spread(g: Played, side: int) -> int:
    """What the game adds to side's spread."""
    if side == g.winner:
        return sum(g.target - s for k, s in enumerate(g.scores) if k != g.winner)
    return -(g.target - g.scores[side])


def table(games: list[Played]) -> list[dict[str, Any]]:
    """One row a player, in the league's order (cribboard.ranking.LEAGUE: game points, then spread, then
    wins, then the name: a place each)."""
    rows: dict[str, dict[str, Any]] = {}
    for g in games:
        for side, name in enumerate(g.names):
            r = rows.setdefault(
                name,
                {
                    "player": name,
                    "games": 0,
                    "wins": 0,
                    "losses": 0,
                    "skunks_given": 0,
                    "skunks_taken": 0,
                    "game_points": 0,
                    "spread": 0,
                },
            )
            r["games"] += 1
            r["spread"] += _spread(g, side)
            if side == g.winner:
                r["wins"] += 1
                r["game_points"] += game_points(ACC, g.skunk)
                r["skunks_given"] += 1 if g.skunk else 0
            else:
                r["losses"] += 1
                r["skunks_taken"] += 1 if g.skunk else 0
    order = []
    for place, r in LEAGUE.places(rows.values(), dict.__getitem__, lambda r: r["player"]):
        r["rank"] = place
        order.append(r)
    return order


def check_pair(a: str, b: str) -> None:
    """UsageError unless a and b are two players (checked before anything is read)."""
    if a == b:
        raise UsageError(_("head-to-head needs two different players"))


def head_to_head(games: list[Played], a: str, b: str) -> dict[str, Any]:
    """The games in which a and b sat at different tracks, and how each fared."""
    check_pair(a, b)
    met = [g for g in games if a in g.names and b in g.names and g.names.index(a) != g.names.index(b)]
    rows = {r["player"]: r for r in table(met)}
    empty = {"games": 0, "wins": 0, "losses": 0, "skunks_given": 0, "skunks_taken": 0, "game_points": 0, "spread": 0}
    return {
        "players": [rows.get(n, dict(empty, player=n)) for n in (a, b)],
        "games": [
            {
                "id": g.id,
                "board": g.board,
                "when": _iso(g.when),
                "winner": g.names[g.winner],
                "scores": [g.scores[g.names.index(n)] for n in (a, b)],
                "skunk": g.skunk,
            }
            for g in met
        ],
    }


def _iso(unix: float) -> str:
    return datetime.fromtimestamp(unix, timezone.utc).isoformat(timespec="seconds")


def date_bound(text: str | None, what: str, end: bool = False) -> float | None:
    """Unix seconds of a date (YYYY-MM-DD, local time) or a date and time.
    end=True: a bare date means the end of that day (--until includes it)."""
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(_("%s %r is not a date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM)") % (what, text)) from None
    try:
        if end and len(text) == 10:
            when += timedelta(days=1)
        return when.timestamp()
    except (OverflowError, ValueError):  # before or after any time this machine's clock can say: every game
        return float("-inf") if when.year < 1970 else float("inf")
