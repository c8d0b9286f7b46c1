# One game as a ledger: settings plus an append-only list of events and an
# undo cursor. Pegs, dealer, winner and skunk are all derived from it.

from cribcore import CoreError, const

# The codes of cribcore.messages.
_PLAYERS = const(201)
_TARGET = const(202)
_NO_SEAT = const(203)
_KIND = const(204)
_GAME_OVER = const(205)
_PASS_SCORES = const(206)
_ENTRY = const(207)
_NO_HAND_SHOWS = const(208)
_HEELS = const(209)
_CRIB = const(210)
_TICKS = const(211)
_LOAD_NEW = const(212)
_CURSOR = const(213)
_BAD_EVENT = const(214)

# Event kinds. DEAL scores nothing: it records that the deal passed on.
# POINTS is an entry that does not say what it was for (a board's buttons).
PEGGING = "pegging"
HAND = "hand"
CRIB = "crib"
HEELS = "heels"
CORRECTION = "correction"
DEAL = "deal"
POINTS = "points"
KINDS = (PEGGING, HAND, CRIB, HEELS, CORRECTION, DEAL, POINTS)

TARGETS = (121, 61)
SKUNK_LINES = (31, 61, 91)  # type: tuple[int, ...]  # a 121-point game's skunk lines, lowest first
SKUNK_LINES_61 = (31,)  # type: tuple[int, ...]  # a 61-point game knows only the skunk
IMPOSSIBLE = (19, 25, 26, 27)  # show totals no hand can make
MAX_ENTRY = 29
STREET = 30

# Skunk classes of a loser.
PLAIN = 0
SKUNK = 1
DOUBLE_SKUNK = 2
TRIPLE_SKUNK = 3
SKUNK_NAMES = ("win", "skunk", "double skunk", "triple skunk")


def sides_for(players: int) -> int:
    """Tracks on the board: 2 or 3 players peg alone, 4 play as two teams."""
    if players == 2 or players == 4:
        return 2
    if players == 3:
        return 3
    raise CoreError(_PLAYERS, (players,))


def check_target(target: int) -> None:
    if target not in TARGETS:
        raise CoreError(_TARGET, (target,))


def skunk_lines(target: int = 121) -> tuple[int, ...]:
    """The skunk lines of a game to target, lowest first."""
    check_target(target)
    return SKUNK_LINES_61 if target == 61 else SKUNK_LINES


def skunk_class(loser_score: int, target: int = 121) -> int:
    """How badly a loser lost: one class for every skunk line not reached
    (121 points: 91+ plain, 61-90 skunk, 31-60 double, 0-30 triple; a
    61-point game knows only the skunk, at 30 or less)."""
    cls = PLAIN
    for line in skunk_lines(target):
        if loser_score < line:
            cls += 1
    return cls


def skunk_line(loser_score: int, target: int = 121) -> int:
    """The next skunk line the loser must pass to escape, or 0 if clear."""
    for line in skunk_lines(target):
        if loser_score < line:
            return line
    return 0


class Game:
    """A game for 2, 3 or 4 players (4 as teams: seats 0+2 against 1+3).

    Events are tuples (seat, points, kind, ticks); ticks is whatever clock
    the caller keeps, stored and never interpreted here."""

    MAX_ENTRY = MAX_ENTRY  # the most one entry may score
    SHOWS = True  # deals end with the hands and the crib shown (counted by kind)
    TENS = False  # entries small enough to tap point by point (no ten-at-a-time key)

    def __init__(self, players: int = 2, target: int = 121, dealer: int = 0) -> None:
        self.sides = sides_for(players)
        check_target(target)
        if not isinstance(dealer, int) or not (0 <= dealer < players):
            raise CoreError(_NO_SEAT, (dealer, players))
        self.players = players
        self.target = target
        self.first_dealer = dealer
        self.events = []  # type: list[tuple[int, int, str, int]]  # (seat, points, kind, ticks)
        self.cursor = 0  # events[:cursor] are in force; the rest can be redone
        self._at = -1  # cursor the derived state below belongs to
        self._totals = [0] * self.sides
        self._backs = [0] * self.sides
        self._deals = 0
        self._winner = None  # type: int | None

    # --- entering ------------------------------------------------------
    def side_of(self, seat: int) -> int:
        if not isinstance(seat, int) or not (0 <= seat < self.players):
            raise CoreError(_NO_SEAT, (seat, self.players))
        return seat % self.sides

    def check(self, seat: int, points: int, kind: str = PEGGING) -> None:
        """ValueError naming the problem if this entry cannot be made now."""
        side = self.side_of(seat)
        if kind not in KINDS:
            raise CoreError(_KIND, (kind,))
        if self.winner() is not None:
            raise CoreError(_GAME_OVER, (self._winner,))
        if kind == DEAL:
            if points != 0:
                raise CoreError(_PASS_SCORES, (points,))
            return
        if not isinstance(points, int) or points < 1 or points > MAX_ENTRY:
            raise CoreError(_ENTRY, (MAX_ENTRY, points))
        if (kind == HAND or kind == CRIB) and points in IMPOSSIBLE:
            raise CoreError(_NO_HAND_SHOWS, (points,))
        dealer_side = self.dealer() % self.sides
        if kind == HEELS and (points != 2 or side != dealer_side):
            raise CoreError(_HEELS, ())
        if kind == CRIB and side != dealer_side:
            raise CoreError(_CRIB, ())

    def add(self, seat: int, points: int, kind: str = PEGGING, ticks: int = 0) -> tuple[int, int, str, int]:
        """Score points for seat; the game ends the moment a side reaches the target."""
        self.check(seat, points, kind)
        if not isinstance(ticks, int) or ticks < 0:
            raise CoreError(_TICKS, (ticks,))
        self._derive()
        del self.events[self.cursor :]
        self.events.append((seat, points, kind, ticks))
        self.cursor += 1
        self._apply(self.events[-1])
        self._at = self.cursor
        return self.events[-1]

    def pass_deal(self, ticks: int = 0) -> tuple[int, int, str, int]:
        """The hand is over: the deal moves to the next seat on the left."""
        return self.add(self.dealer(), 0, DEAL, ticks)

    def load(self, events: list, cursor: int) -> None:
        """Replay saved events (checking each) and put the undo cursor back."""
        if self.events:
            raise CoreError(_LOAD_NEW, ())
        if not isinstance(cursor, int) or not (0 <= cursor <= len(events)):
            raise CoreError(_CURSOR, (cursor, len(events)))
        for e in events:
            if len(e) != 4:
                raise CoreError(_BAD_EVENT, (e,))
            self.add(e[0], e[1], e[2], e[3])
        self.cursor = cursor

    def undo(self) -> bool:
        if self.cursor == 0:
            return False
        self.cursor -= 1
        return True

    def redo(self) -> bool:
        if self.cursor == len(self.events):
            return False
        self.cursor += 1
        return True

    # --- derived state -------------------------------------------------
    def _apply(self, event: tuple[int, int, str, int]) -> None:
        seat, points, kind, _ = event
        if kind == DEAL:
            self._deals += 1
            return
        side = seat % self.sides
        self._backs[side] = self._totals[side]
        self._totals[side] += points
        if self._totals[side] >= self.target and self._winner is None:
            self._winner = side

    def _derive(self) -> None:
        if self._at == self.cursor:
            return
        for i in range(self.sides):
            self._totals[i] = 0
            self._backs[i] = 0
        self._deals = 0
        self._winner = None
        for i in range(self.cursor):
            self._apply(self.events[i])
        self._at = self.cursor

    def score(self, side: int) -> int:
        """The front peg: the side's score, never past the game hole."""
        self._derive()
        t = self._totals[side]
        return t if t < self.target else self.target

    def scores(self) -> list[int]:
        return [self.score(s) for s in range(self.sides)]

    def back(self, side: int) -> int:
        """The back peg: the side's score before its last entry."""
        self._derive()
        return self._backs[side]

    def dealer(self) -> int:
        self._derive()
        return (self.first_dealer + self._deals) % self.players

    def winner(self) -> int | None:
        """The side that reached the target, or None while the game goes on."""
        self._derive()
        return self._winner

    def over(self) -> bool:
        return self.winner() is not None

    def trailer(self) -> int:
        self._derive()
        worst = 0
        for s in range(1, self.sides):
            if self._totals[s] < self._totals[worst]:
                worst = s
        return worst

    def loser(self) -> int | None:
        """The best-placed loser's side once won (a skunk is judged by it,
        since the winner must have beaten every opponent by that margin)."""
        w = self.winner()
        if w is None:
            return None
        best = -1
        for s in range(self.sides):
            if s != w and (best < 0 or self._totals[s] > self._totals[best]):
                best = s
        return best

    def skunk(self) -> int | None:
        """Skunk class of the game once won."""
        loser = self.loser()
        return None if loser is None else skunk_class(self._totals[loser], self.target)

    def lines(self) -> tuple[int, ...]:
        """The lines a trailing track is measured by: the skunk lines."""
        return skunk_lines(self.target)

    def counting_order(self) -> list[tuple[int, str]]:
        """The show: each player from the dealer's left, the dealer, then the crib."""
        d = self.dealer()
        order = []  # type: list[tuple[int, str]]
        for i in range(1, self.players + 1):
            order.append(((d + i) % self.players, HAND))
        order.append((d, CRIB))
        return order

    def race(self) -> list[list[int]]:
        """The scores after each scoring event in force: one list per event."""
        totals = [0] * self.sides
        out = []  # type: list[list[int]]
        for i in range(self.cursor):
            seat, points, kind, _ = self.events[i]
            if kind == DEAL:
                continue
            totals[seat % self.sides] += points
            out.append([t if t < self.target else self.target for t in totals])
        return out
