# The show: counting a hand or crib of four cards with the starter.
# Written with integer tricks, not combinations, so that every one of the
# 12,994,800 hand+starter combinations can be scored in under a minute.

from collections import namedtuple

from cribcore import CoreError, const
from cribcore.game import IMPOSSIBLE
from cribrules.cards import JACK

Show = namedtuple("Show", ("total", "fifteens", "pairs", "runs", "flush", "nobs"))

MAX_SHOW = 29

# The codes of cribcore.messages.
_FOUR_CARDS = const(851)
_NOT_CARDS = const(852)
_TWICE = const(853)
_NO_SUCH_SHOW = const(854)

_FIELD_MASK = (1 << 64) - 1  # 16 four-bit subset counters, sums 0..15
_VALUE_SHIFT = (4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 40, 40, 40)  # 4 * pip value by rank


def score(hand: list[int] | tuple[int, ...], starter: int, crib: bool = False) -> Show:
    """Score four cards with the starter; crib=True applies the crib flush rule."""
    if len(hand) != 4:
        raise CoreError(_FOUR_CARDS, (len(hand),))
    a, b, c, d = hand
    e = starter
    if not (0 <= a < 52 and 0 <= b < 52 and 0 <= c < 52 and 0 <= d < 52 and 0 <= e < 52):
        raise CoreError(_NOT_CARDS, (hand, starter))
    if a == b or a == c or a == d or a == e or b == c or b == d or b == e or c == d or c == e or d == e:
        raise CoreError(_TWICE, ())
    ra = a >> 2
    rb = b >> 2
    rc = c >> 2
    rd = d >> 2
    re = e >> 2

    # Fifteens: the product of (1 + x^value) with one 4-bit counter per sum;
    # counter 15 is the number of subsets adding to 15 (never more than 10,
    # so no counter carries into the next).
    ways = 1
    for r in (ra, rb, rc, rd, re):
        ways = (ways + (ways << _VALUE_SHIFT[r])) & _FIELD_MASK
    fifteens = ((ways >> 60) & 15) * 2

    same = (
        (ra == rb)
        + (ra == rc)
        + (ra == rd)
        + (ra == re)
        + (rb == rc)
        + (rb == rd)
        + (rb == re)
        + (rc == rd)
        + (rc == re)
        + (rd == re)
    )
    pairs = same * 2

    runs = 0
    present = (1 << ra) | (1 << rb) | (1 << rc) | (1 << rd) | (1 << re)
    starts = present & (present >> 1) & (present >> 2)
    if starts:
        # Five cards hold at most one run of three or more distinct ranks.
        low = 0
        while not (starts >> low) & 1:
            low += 1
        length = 3
        while (present >> (low + length)) & 1:
            length += 1
        high = low + length
        inside = (low <= ra < high) + (low <= rb < high) + (low <= rc < high) + (low <= rd < high) + (low <= re < high)
        extra = inside - length
        if extra == 0:
            runs = length
        elif extra == 1:
            runs = length * 2
        else:
            # Two extra cards inside a run of three: a pair royal (3 runs)
            # or two pairs (4 runs); all five cards are then in the run.
            runs = length * (3 if same == 3 else 4)

    flush = 0
    sa = a & 3
    if sa == b & 3 == c & 3 == d & 3:
        if e & 3 == sa:
            flush = 5
        elif not crib:
            flush = 4

    nobs = 1 if (JACK * 4 + (e & 3)) in hand else 0

    return Show(fifteens + pairs + runs + flush + nobs, fifteens, pairs, runs, flush, nobs)


def his_heels(starter: int) -> int:
    """Points the dealer pegs when the starter is cut: 2 for a jack."""
    return 2 if starter >> 2 == JACK else 0


def check_claim(points: int) -> None:
    """ValueError unless points is a total some hand can show."""
    if not isinstance(points, int) or points < 0 or points > MAX_SHOW or points in IMPOSSIBLE:
        raise CoreError(_NO_SUCH_SHOW, (points,))


def muggins(hand: list[int] | tuple[int, ...], starter: int, claimed: int, crib: bool = False) -> int:
    """Points a player left uncounted, which the opponent may take.

    An overclaim misses nothing (0); it is a different error, corrected by
    comparing with score()."""
    check_claim(claimed)
    actual = score(hand, starter, crib).total
    return actual - claimed if actual > claimed else 0


def describe(show: Show, names: tuple[str, ...] | list[str] | None = None) -> str:
    """One line naming what scored, e.g. '15s 8, pairs 2, runs 6 = 16'.
    names: the words for 15s, pairs, runs, flush, nobs and nothing (the
    host passes them in the reader's language)."""
    names = names or ("15s", "pairs", "runs", "flush", "nobs", "nothing")
    parts = []  # type: list[str]
    for name, points in zip(names, (show.fifteens, show.pairs, show.runs, show.flush, show.nobs)):
        if points:
            parts.append("%s %d" % (name, points))
    return (", ".join(parts) or names[5]) + " = %d" % show.total
