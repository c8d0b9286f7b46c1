# A night's standings and each player's scorecard, from its filed results,
# in the tournament's order (cribboard.ranking.TOURNAMENT: game points, then
# games won, then spread, the points a player's games were won by less the
# points they were lost by; players equal on all three share a place). A
# card reads "16/7": game points / games won.
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from cribboard.event.sources import BYE
from cribboard.night.results import Result
from cribboard.night.scheme import Scheme
from cribboard.ranking import TOURNAMENT


@dataclass
class Line:
    """One round of a player's scorecard."""

    round: int
    table: str | None
    opponent: str | None  # None: a bye
    won: bool
    score: int  # the player's, and the opponent's
    against: int
    game_points: int
    spread: int
    total_points: int = 0  # running totals, this round's in
    total_spread: int = 0
    source: str = ""

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Standing:
    player: str  # as shown (cribboard.event.roster: the name, with the number where it is shared)
    number: int = 0  # the player's number in the night
    games: int = 0  # played at a board: a bye is not a game
    wins: int = 0
    losses: int = 0
    byes: int = 0
    skunks: int = 0  # given
    game_points: int = 0
    spread: int = 0
    rank: int = 0
    lines: list[Line] = field(default_factory=list)

    def card(self) -> str:
        return "%d/%d" % (self.game_points, self.wins)

    def as_dict(self, lines: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rank": self.rank,
            "player": self.player,
            "number": self.number,
            "card": self.card(),
            "game_points": self.game_points,
            "wins": self.wins,
            "spread": self.spread,
            "games": self.games,
            "losses": self.losses,
            "byes": self.byes,
            "skunks": self.skunks,
        }
        if lines:
            out["lines"] = [ln.as_dict() for ln in self.lines]
        return out


def _lines(r: Result, scheme: Scheme, label: Callable[[int | None], str]) -> list[tuple[int, Line]]:
    """What one result puts on each of its players' cards."""
    if r.source == BYE:
        pts = scheme.bye_points
        return [(r.winner, Line(r.round, None, None, scheme.bye_wins, 0, 0, pts, scheme.bye_spread, source=BYE))]
    first, second = r.players
    assert second is not None  # (a bye has none: answered above)
    margin = r.margin()
    out = []
    for me, them, mine, theirs in (
        (first, second, r.scores[0], r.scores[1]),
        (second, first, r.scores[1], r.scores[0]),
    ):
        won = me == r.winner
        pts = scheme.points(r.skunk) if won else scheme.loss
        out.append(
            (
                me,
                Line(
                    r.round, r.table, label(them), won, mine, theirs, pts, margin if won else -margin, source=r.source
                ),
            )
        )
    return out


def table(
    players: Iterable[int], results: Iterable[Result], scheme: Scheme, label: Callable[[int | None], str]
) -> list[Standing]:
    """One row a player of the night (those with no result yet too), in the night's order; label: how a
    player is shown."""
    rows = {number: Standing(label(number), number) for number in players}
    for r in sorted(results, key=lambda r: r.round):
        for number, line in _lines(r, scheme, label):
            row = rows.setdefault(number, Standing(label(number), number))
            row.lines.append(line)
            row.game_points += line.game_points
            row.spread += line.spread
            if line.opponent is None:
                row.byes += 1
                row.wins += 1 if line.won else 0
            else:
                row.games += 1
                if line.won:
                    row.wins += 1
                    row.skunks += 1 if r.skunk else 0
                else:
                    row.losses += 1
            line.total_points, line.total_spread = row.game_points, row.spread
    return ranked(rows.values())


class Ranked(Protocol):
    """A row to rank: its player, its numbers (TOURNAMENT's fields) and the place it is given."""

    player: str
    rank: int
    game_points: int
    wins: int
    spread: int


R = TypeVar("R", bound=Ranked)


def ranked(rows: Iterable[R]) -> list[R]:
    """The rows in the tournament's order (cribboard.ranking.TOURNAMENT), each given its place."""
    out = []
    for place, row in TOURNAMENT.places(rows, getattr, lambda r: r.player):
        row.rank = place
        out.append(row)
    return out


def paid(rows: Sequence[Standing]) -> int:
    """How many places the top quarter pays (a quarter of the field, at least one; ties at the line
    all paid)."""
    if not rows:
        return 0
    line = max(1, len(rows) // 4)
    return sum(1 for row in rows if row.rank <= rows[line - 1].rank)
