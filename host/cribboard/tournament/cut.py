# The cut from qualifying to the playoffs, as the ACC sets it: one entrant in
# four qualifies, a fraction rounded up (121 to 124 entrants: 31), never
# rounded up to a full bracket. The next full bracket (a power of two) less
# the qualifiers is the count of first-round byes, which go to the highest
# qualifiers (108 entrants: 27 qualify, a bracket of 32, the top 5 get
# byes), so the second round is a full bracket. Qualifiers are taken in the
# qualifying standings' order (cribboard.ranking.TOURNAMENT); players still
# equal at the line are shown to the director, who decides. A player who
# withdrew is out: the places go to those still in.
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol


def qualifiers(entrants: int) -> int:
    """How many qualify: one in four, rounded up."""
    return -(-entrants // 4)


def bracket_size(players: int) -> int:
    """The full bracket a playoff of this many needs: the least power of two not below it (at least 2)."""
    size = 2
    while size < players:
        size *= 2
    return size


def byes(players: int) -> int:
    """First-round byes in a playoff of this many qualifiers."""
    return bracket_size(players) - players


class Placed(Protocol):
    """A row of the qualifying standings: its place (shared by players equal on the order's fields)."""

    rank: int


@dataclass(frozen=True)
class Cut:
    qualifiers: int  # how many go through
    through: tuple[int, ...]  # the rows (indexes into the standings) surely through, best first
    tied: tuple[int, ...]  # rows equal at the line: the director takes len(tied) - (qualifiers - len(through))
    out: tuple[int, ...]  # the rows surely out

    def open_places(self) -> int:
        """Places at the line the director fills from tied."""
        return self.qualifiers - len(self.through)


def cut(standings: Sequence[Placed], entrants: int | None = None, withdrawn: Collection[int] = ()) -> Cut:
    """The cut of qualifying standings (in their order): entrants, if given, is the count the cut is of (a
    field that had players leave still counts them as entrants); by default, every row. withdrawn: the rows
    of players who left, out whatever their place (a playoff cannot seat them), the places filled from
    those still in."""
    eligible = [i for i in range(len(standings)) if i not in withdrawn]
    count = min(qualifiers(len(standings) if entrants is None else entrants), len(eligible))
    if count == 0:
        return Cut(0, (), (), tuple(range(len(standings))))
    line = standings[eligible[count - 1]].rank
    equal = [i for i in eligible if standings[i].rank == line]
    through = tuple(i for i in eligible if standings[i].rank < line)
    tied = tuple(equal) if len(through) + len(equal) > count else ()
    if not tied:
        through = tuple(eligible[:count])
    out = tuple(i for i in range(len(standings)) if i not in through and i not in tied)
    return Cut(count, through, tied, out)
