# A season: the nights added up. A player's game points, games won and
# spread over every night they played, ranked as a night is (the
# tournament's order, cribboard.ranking.TOURNAMENT), with how many nights they played, won, and
# finished in the top quarter (the places a night pays).
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cribboard.night.standings import Standing, paid, ranked


@dataclass
class SeasonRow:
    player: str
    nights: int = 0
    firsts: int = 0
    paid: int = 0
    game_points: int = 0
    wins: int = 0
    spread: int = 0
    rank: int = 0
    by_night: list[dict[str, Any]] = field(default_factory=list)  # each night played: its place and card

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__, by_night=list(self.by_night))


def table(nights: Iterable[tuple[int, Sequence[Standing]]]) -> list[SeasonRow]:
    """One row a player who played any of the nights ((night id, its standings in its order), oldest
    first)."""
    rows: dict[str, SeasonRow] = {}
    for night, standings in nights:
        line = paid(standings)
        for place, r in enumerate(standings, 1):
            if not r.lines:
                continue  # in the night's list, but never played (gone before a round was in)
            s = rows.setdefault(r.player, SeasonRow(r.player))
            s.nights += 1
            s.firsts += 1 if r.rank == 1 else 0
            s.paid += 1 if place <= line else 0
            s.game_points += r.game_points
            s.wins += r.wins
            s.spread += r.spread
            s.by_night.append({"night": night, "rank": r.rank, "card": r.card(), "spread": r.spread})
    return ranked(rows.values())
