# The orders players are ranked in, declared once and each named: what a
# table says it is ranked by comes from here, and so does the ranking.
# TOURNAMENT is the American Cribbage Congress's order for a tournament and
# a grass roots night: game points, then games won, then spread; players
# equal on all three share a place. A club night, its season and a
# tournament rank so. LEAGUE is the league table's (`cribboard standings`,
# every game a board synced): game points, then spread, then games won, and
# the name parting players equal on all three, so each has a place of their
# own. Kept as it was when the night came (docs/decisions.md, "The order"):
# changing it would reorder the tables clubs already keep.
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from cribboard.text.i18n import N_, _

T = TypeVar("T")

FIELD_WORDS = {"game_points": N_("game points"), "wins": N_("games won"), "spread": N_("spread")}


@dataclass(frozen=True)
class Order:
    name: str
    by: tuple[str, ...]  # the fields ranked on, each highest first
    shared: bool  # players equal on every field share a place; else their names part them

    def said(self) -> str:
        """The order in the reader's words: "game points, then games won, then spread"."""
        return _(", then ").join(_(FIELD_WORDS[f]) for f in self.by)

    def note(self) -> str:
        """What a table ranked so says of its order (on stderr, beside the data)."""
        if self.shared:
            return _("ranked by %s; players equal on all three share a place (the tournament's order)") % self.said()
        return _("ranked by %s, then the name: a place each (the league's order)") % self.said()

    def places(
        self, rows: Iterable[T], value: Callable[[T, str], int], player: Callable[[T], str]
    ) -> list[tuple[int, T]]:
        """(place, row) in this order, the rows' player names ordering those equal on every field.
        value(row, field) is the row's number for a field."""

        def key(row: T) -> tuple[int, ...]:
            return tuple(-value(row, f) for f in self.by)

        order = sorted(rows, key=lambda row: (key(row), player(row)))
        out: list[tuple[int, T]] = []
        for place, row in enumerate(order, 1):
            if self.shared and out and key(out[-1][1]) == key(row):
                place = out[-1][0]
            out.append((place, row))
        return out


TOURNAMENT = Order("tournament", ("game_points", "wins", "spread"), shared=True)
LEAGUE = Order("league", ("game_points", "spread", "wins"), shared=False)
