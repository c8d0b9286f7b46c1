# A piquet partie on the board (docs/playing.md, "Piquet"): a ledger of entries and
# deal ends like a cribbage game's, and the rubicon result. Kept apart from
# the hand scoring in cribrules.piquet, which a board never loads.
from cribcore import CoreError, const
from cribcore.game import DEAL, POINTS, Game
from cribcore.match import PIQUET

# The codes of cribcore.messages.
_DEALER = const(901)
_SEAT = const(902)
_KIND = const(903)
_OVER = const(904)
_END_SCORES = const(905)
_ENTRY = const(906)
_ONE_PARTIE = const(907)
_START_NEW = const(908)

DEALS = 6
EXTRA_DEALS = 2
RUBICON = 100
RUBICON_LINES = (RUBICON,)


def rubicon(totals: list[int]) -> tuple[int, int] | None:
    """(winner, points) of a finished partie, or None on a tie."""
    a, b = totals
    if a == b:
        return None
    w = 0 if a > b else 1
    loser = totals[1 - w]
    if loser < RUBICON:
        return (w, RUBICON + a + b)  # rubiconed
    return (w, RUBICON + abs(a - b))


MAX_ENTRY = 250  # a repique with capot and all the rest stays under this


class PiquetGame(Game):
    """A partie as a ledger of entries and deal ends, with undo and redo.
    Totals run past 120; the partie ends with its sixth deal (eighth on a
    tie). The dealer (younger) alternates with every deal."""

    MAX_ENTRY = MAX_ENTRY
    SHOWS = False  # entries are points; the board does not count by kind
    TENS = True  # a deal may score 150 and more: SKUNK adds ten to the points being entered

    def __init__(self, dealer: int = 0) -> None:
        if dealer not in (0, 1):
            raise CoreError(_DEALER, ())
        Game.__init__(self, 2, 121, dealer)
        self.target = 0  # no target: the partie is a number of deals

    def add(self, seat: int, points: int, kind: str = POINTS, ticks: int = 0) -> tuple[int, int, str, int]:
        return Game.add(self, seat, points, kind, ticks)

    def check(self, seat: int, points: int, kind: str = POINTS) -> None:
        if not isinstance(seat, int) or not (0 <= seat < 2):
            raise CoreError(_SEAT, (seat,))
        if kind not in (POINTS, DEAL):
            raise CoreError(_KIND, (kind,))
        if self.over():
            raise CoreError(_OVER, ())
        if kind == DEAL:
            if points != 0:
                raise CoreError(_END_SCORES, ())
            return
        if not isinstance(points, int) or points < 1 or points > MAX_ENTRY:
            raise CoreError(_ENTRY, (MAX_ENTRY, points))

    def _apply(self, event: tuple[int, int, str, int]) -> None:
        seat, points, kind, _ = event
        if kind == DEAL:
            self._deals += 1
            t = self._totals
            if self._deals >= DEALS + EXTRA_DEALS or (self._deals == DEALS and t[0] != t[1]):
                self._winner = -1 if t[0] == t[1] else (0 if t[0] > t[1] else 1)
            return
        self._backs[seat] = self._totals[seat]
        self._totals[seat] += points

    def score(self, side: int) -> int:
        self._derive()
        return self._totals[side]

    def winner(self) -> int | None:
        self._derive()
        return None if self._winner is None or self._winner < 0 else self._winner

    def over(self) -> bool:
        self._derive()
        return self._winner is not None

    def deal_number(self) -> int:
        """1 for the first deal ... (the one being played, or the last one)."""
        self._derive()
        return self._deals + (0 if self._winner is not None else 1)

    def skunk(self) -> int | None:
        return 0 if self.winner() is not None else None

    def lines(self) -> tuple[int, ...]:
        """The rubicon: a loser under it at the end loses double."""
        return RUBICON_LINES

    def rubicon(self) -> tuple[int, int] | None:
        """(winner, points) once over, else None."""
        return rubicon(self.scores()) if self.over() else None

    def race(self) -> list[list[int]]:
        totals = [0, 0]
        out = []  # type: list[list[int]]
        for i in range(self.cursor):
            seat, points, kind, _ = self.events[i]
            if kind != DEAL:
                totals[seat] += points
                out.append(list(totals))
        return out


class PiquetMatch:
    """One partie in the shape of a cribbage Match, so the board's app and
    its records treat both alike."""

    kind = PIQUET
    sides = 2
    players = 2
    target = 0
    scheme = "rubicon"
    best_of = 1
    first_to = None
    need = 1

    def __init__(self, dealer: int = 0) -> None:
        self.games = [PiquetGame(dealer)]
        self.closed = []  # type: list[tuple[int, int, int]]  # (a partie is one game: never a closed one)

    @property
    def game(self) -> PiquetGame:
        return self.games[-1]

    def result(self, index: int) -> tuple[int, int, int] | None:
        if index != 0:
            raise CoreError(_ONE_PARTIE, ())
        r = self.game.rubicon()
        return None if r is None else (r[0], 0, r[1])

    def held(self, index: int) -> PiquetGame:
        if index != 0:
            raise CoreError(_ONE_PARTIE, ())
        return self.game

    def standings(self) -> tuple[list[int], list[int], int | None]:
        wins = [0, 0]
        points = [0, 0]
        r = self.result(0)
        if r is not None:
            wins[r[0]] = 1
            points[r[0]] = r[2]
        return wins, points, None

    def winner(self) -> int | None:
        r = self.result(0)
        return None if r is None else r[0]

    def over(self) -> bool:
        return self.game.over()

    def next_dealer(self) -> int:
        return 1 - self.game.first_dealer

    def next_game(self) -> PiquetGame:
        raise CoreError(_START_NEW, ())

    def restart_game(self) -> None:
        self.games[-1] = PiquetGame(self.game.first_dealer)

    def forget_closed(self) -> None:
        pass
