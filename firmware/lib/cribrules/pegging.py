# The play: points for each card laid, and an engine that plays whole hands.

from collections import namedtuple

from cribcore import CoreError, const
from cribrules.cards import check_distinct, format_card, value

_TYPE_CHECKING = const(0)  # typing's, folded away on MicroPython (cribcore.record says how)
if _TYPE_CHECKING:
    from collections.abc import Callable

Lay = namedtuple("Lay", ("total", "fifteen", "thirty_one", "pairs", "run"))

MAX_COUNT = 31

# The codes of cribcore.messages.
_NO_SEAT = const(203)
_NOTHING_LAID = const(701)
_PAST_31 = const(702)
_HANDS = const(703)
_PLAY_OVER = const(704)
_NOT_HELD = const(705)
_CARD_PAST_31 = const(706)
_PAIR_POINTS = (0, 0, 2, 6, 12)  # by cards of one rank laid in a row

# Reasons on the engine's scoring events.
PLAY = "play"
GO = "go"
LAST = "last"


def count_of(series: list[int]) -> int:
    total = 0
    for c in series:
        total += value(c)
    return total


def score_lay(series: list[int]) -> Lay:
    """Points for the last card of series, the cards laid since the count was 0."""
    n = len(series)
    if n == 0:
        raise CoreError(_NOTHING_LAID, ())
    check_distinct(series)
    count = count_of(series)
    if count > MAX_COUNT:
        raise CoreError(_PAST_31, (count,))
    fifteen = 2 if count == 15 else 0
    thirty_one = 2 if count == MAX_COUNT else 0

    last = series[-1] >> 2
    same = 1
    while same < n and series[n - 1 - same] >> 2 == last:
        same += 1
    pairs = _PAIR_POINTS[same]

    run = 0
    if same == 1:
        # The longest window of the last k cards holding k distinct,
        # consecutive ranks; a repeated rank inside the window breaks it.
        seen = 0
        low = high = last
        for k in range(1, n + 1):
            r = series[n - k] >> 2
            bit = 1 << r
            if seen & bit:
                break
            seen |= bit
            if r < low:
                low = r
            if r > high:
                high = r
            if k >= 3 and high - low == k - 1:
                run = k
    return Lay(fifteen + thirty_one + pairs + run, fifteen, thirty_one, pairs, run)


class Play:
    """The play of one hand for 2, 3 or 4 players (4 play as two teams).

    Seats are numbered clockwise; the player left of the dealer leads. A
    player who cannot lay a card says go and is skipped; the engine moves
    the turn and scores go, 31 and last card itself. Scoring events are
    (seat, points, reason, lay) with lay the Lay breakdown or None."""

    def __init__(self, hands: list[list[int]], dealer: int) -> None:
        n = len(hands)
        if n < 2 or n > 4:
            raise CoreError(_HANDS, (n,))
        if not (0 <= dealer < n):
            raise CoreError(_NO_SEAT, (dealer, n))
        all_cards = []  # type: list[int]
        for h in hands:
            all_cards.extend(h)
        check_distinct(all_cards)
        self.seats = n
        self.hands = [list(h) for h in hands]
        self.series = []  # type: list[int]
        self.count = 0
        self.last = -1  # seat that laid the last card of the series
        self.events = []  # type: list[tuple[int, int, str, Lay | None]]
        self.gone = []  # type: list[int]  # seats that said go in the current series, in order
        self.turn = (dealer + 1) % n
        self.done = all_cards == []

    def playable(self, seat: int | None = None) -> list[int]:
        """Cards the seat (default: whose turn it is) may lay now."""
        if seat is None:
            seat = self.turn
        room = MAX_COUNT - self.count
        return [c for c in self.hands[seat] if value(c) <= room]

    def lay(self, c: int) -> list[tuple[int, int, str, Lay | None]]:
        """The player whose turn it is lays card c; returns the events it caused."""
        if self.done:
            raise CoreError(_PLAY_OVER, ())
        seat = self.turn
        if c not in self.hands[seat]:
            raise CoreError(_NOT_HELD, (seat, format_card(c)))
        if value(c) + self.count > MAX_COUNT:
            raise CoreError(_CARD_PAST_31, (format_card(c),))
        first = len(self.events)
        self.hands[seat].remove(c)
        self.series.append(c)
        self.count += value(c)
        self.last = seat
        points = score_lay(self.series)
        if points.total:
            self.events.append((seat, points.total, PLAY, points))
        self._advance()
        return self.events[first:]

    def _advance(self) -> None:
        n = self.seats
        if not any(self.hands):
            if self.count != MAX_COUNT:
                self.events.append((self.last, 1, LAST, None))
            self._reset()
            self.done = True
            return
        if self.count == MAX_COUNT:
            self._reset()
            self.turn = self._next_holding(self.last)
            return
        seat = self.last
        for _ in range(n):
            seat = (seat + 1) % n
            if self.playable(seat):
                self.turn = seat
                return
            if self.hands[seat] and seat not in self.gone:
                self.gone.append(seat)
        # Nobody can lay another card: go to whoever laid the last one.
        self.events.append((self.last, 1, GO, None))
        self._reset()
        self.turn = self._next_holding(self.last)

    def _next_holding(self, seat: int) -> int:
        for _ in range(self.seats):
            seat = (seat + 1) % self.seats
            if self.hands[seat]:
                return seat
        return seat

    def _reset(self) -> None:
        self.series = []
        self.count = 0
        self.gone = []


def first_playable(play: Play) -> int:
    """The simplest strategy: the first card in hand order that may be laid."""
    return play.playable()[0]


def play_out(
    hands: list[list[int]], dealer: int, choose: "Callable[[Play], int]" = first_playable
) -> list[tuple[int, int, str, Lay | None]]:
    """Play whole hands; choose(play) picks each card. Returns the events."""
    play = Play(hands, dealer)
    while not play.done:
        play.lay(choose(play))
    return play.events
