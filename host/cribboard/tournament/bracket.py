# The playoff bracket: the qualifiers seeded in their qualifying order, set
# in the full bracket by the chart (cribboard.tournament.chart); a seed
# whose chart partner is past the qualifiers has a first-round bye. A
# match of a later round is known once both matches before it in the
# bracket have a winner. Places: the final's winner first, its loser
# second, then those who lost in each earlier round sharing the places
# that round decides (3rd for the semi-finals' losers, 5th for the
# quarter-finals', ...).
from collections.abc import Mapping
from dataclasses import dataclass

from cribboard.tournament import chart
from cribboard.tournament.cut import bracket_size

Slot = tuple[int, int]  # (round from 1, place in the round from the top, from 0)


@dataclass(frozen=True)
class Pairing:
    round: int
    slot: int
    high: int | None  # the higher seed (the lower number) once known
    low: int | None  # the other seed once known; None with high known: a bye
    bye: bool = False


class Bracket:
    def __init__(self, qualifiers: int) -> None:
        if qualifiers < 2:
            raise ValueError("a playoff needs two qualifiers, not %d" % qualifiers)
        self.qualifiers = qualifiers
        self.size = bracket_size(qualifiers)
        self.rounds = self.size.bit_length() - 1
        self.first = chart.first_round(self.size)

    def matches_in(self, number: int) -> int:
        return self.size >> number

    def match(self, round_no: int, slot: int, winners: Mapping[Slot, int]) -> Pairing:
        """A match, its seeds as far as the winners so far say (winners: each decided match's winning seed)."""
        if round_no == 1:
            high, low = self.first[slot]
            if low > self.qualifiers:
                return Pairing(1, slot, high, None, bye=True)
            return Pairing(1, slot, high, low)
        a = self.winner(round_no - 1, 2 * slot, winners)
        b = self.winner(round_no - 1, 2 * slot + 1, winners)
        if a is None or b is None:
            return Pairing(round_no, slot, a if b is None else b if a is None else None, None)
        return Pairing(round_no, slot, min(a, b), max(a, b))

    def winner(self, round_no: int, slot: int, winners: Mapping[Slot, int]) -> int | None:
        """A match's winning seed: a bye's seed, or the one decided; None while it is not."""
        if round_no == 1 and self.first[slot][1] > self.qualifiers:
            return self.first[slot][0]
        return winners.get((round_no, slot))

    def round(self, number: int, winners: Mapping[Slot, int]) -> list[Pairing]:
        return [self.match(number, slot, winners) for slot in range(self.matches_in(number))]

    def ready(self, number: int, winners: Mapping[Slot, int]) -> bool:
        """Whether every match of a round has both its seeds (the round can be drawn to tables)."""
        return all(m.bye or m.low is not None for m in self.round(number, winners))

    def places(self, winners: Mapping[Slot, int]) -> dict[int, int]:
        """Each seed knocked out so far (and the champion, once there is one) with the place they finish."""
        out: dict[int, int] = {}
        for number in range(1, self.rounds + 1):
            for m in self.round(number, winners):
                won = winners.get((number, m.slot))
                if m.bye or won is None or m.high is None or m.low is None:
                    continue
                lost = m.low if won == m.high else m.high
                out[lost] = self.matches_in(number) + 1
                if number == self.rounds:
                    out[won] = 1
        return out
