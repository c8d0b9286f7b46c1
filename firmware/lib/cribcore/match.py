# A match: games in a row under one scheme of game points, won by the best
# of N games or the first to N game points. Standings derive from the games.

from cribcore import CoreError, const
from cribcore.game import DOUBLE_SKUNK, PLAIN, SKUNK, TRIPLE_SKUNK, Game, sides_for

# The codes of cribcore.messages.
_SCHEME = const(301)
_SKUNK_CLASS = const(302)
_BOTH_LENGTHS = const(303)
_LENGTH = const(304)
_NOT_STARTED = const(305)
_NOT_HELD = const(306)
_GAME_NOT_OVER = const(307)
_MATCH_OVER = const(308)

ACC = "acc"
LONG = "long"
FREE = "free"
FREE_TRIPLE = "free_triple"

# The games a match can be of (the settings' "game").
CRIBBAGE = "cribbage"
PIQUET = "piquet"

WINS_MATCH = -1  # game points entry meaning "wins the whole match"

# Game points to the winner by the loser's skunk class (win, skunk, double, triple).
# The schemes in the order a board numbers them (menu, match view: 1 to 4).
SCHEME_ORDER = (ACC, LONG, FREE, FREE_TRIPLE)
SCHEMES = {
    ACC: (2, 3, 3, 3),
    LONG: (3, 4, 4, 4),
    FREE: (1, 2, 4, 4),
    FREE_TRIPLE: (1, 2, 4, WINS_MATCH),
}


def game_points(scheme: str, skunk: int) -> int:
    """Game points a win is worth; WINS_MATCH for a match-winning triple skunk."""
    if scheme not in SCHEMES:
        raise CoreError(_SCHEME, (scheme,))
    if skunk not in (PLAIN, SKUNK, DOUBLE_SKUNK, TRIPLE_SKUNK):
        raise CoreError(_SKUNK_CLASS, (skunk,))
    return SCHEMES[scheme][skunk]


def wins_needed(best_of: int) -> int:
    """Games that win a match of best of best_of (the host's playoffs count by it too)."""
    return best_of // 2 + 1


class Match:
    """Best of N games (best_of=N) or a race to N game points (first_to=N)."""

    kind = CRIBBAGE

    def __init__(
        self,
        players: int = 2,
        target: int = 121,
        scheme: str = ACC,
        best_of: int | None = None,
        first_to: int | None = None,
        dealer: int = 0,
    ) -> None:
        self.sides = sides_for(players)
        if scheme not in SCHEMES:
            raise CoreError(_SCHEME, (scheme,))
        if best_of is None and first_to is None:
            best_of = 1
        if (best_of is None) == (first_to is None):
            raise CoreError(_BOTH_LENGTHS, ())
        length = best_of if first_to is None else first_to
        if not isinstance(length, int) or length < 1 or length > 99:
            raise CoreError(_LENGTH, (length,))
        self.players = players
        self.target = target
        self.scheme = scheme
        self.best_of = best_of
        self.first_to = first_to
        # Games to win (best of N) or game points to reach (first to N).
        self.need = wins_needed(length) if first_to is None else length
        # Ledgers of the games held in memory, the current one last. The board
        # keeps only the current one; `closed` has the result of every game
        # before it, so standings never need the old ledgers.
        self.games = [Game(players, target, dealer)]
        self.closed = []  # type: list[tuple[int, int, int]]  # (winner side, skunk class, game points)

    @property
    def game(self) -> Game:
        """The game being played (or just finished)."""
        return self.games[-1]

    def result(self, index: int) -> tuple[int, int, int] | None:
        """(winner side, skunk class, game points) of game index (0-based), or
        None while that game goes on."""
        if index < len(self.closed):
            return self.closed[index]
        if index != len(self.closed):
            raise CoreError(_NOT_STARTED, (index + 1,))
        g = self.game
        w = g.winner()
        if w is None:
            return None
        sk = g.skunk()  # (an int once there is a winner)
        return (w, sk, game_points(self.scheme, sk))  # type: ignore[arg-type, return-value]

    def held(self, index: int) -> Game:
        """The ledger of game index, if it is still held in memory."""
        first = len(self.closed) + 1 - len(self.games)
        if index < first or index > len(self.closed):
            raise CoreError(_NOT_HELD, (index + 1,))
        return self.games[index - first]

    def standings(self) -> tuple[list[int], list[int], int | None]:
        """(games won, game points) per side, and the side that took the match
        outright with a triple skunk (or None)."""
        wins = [0] * self.sides
        points = [0] * self.sides
        outright = None
        for i in range(len(self.closed) + 1):
            r = self.result(i)
            if r is None:
                continue
            w, _, p = r
            wins[w] += 1
            if p == WINS_MATCH:
                outright = w
            else:
                points[w] += p
        return wins, points, outright

    def winner(self) -> int | None:
        wins, points, outright = self.standings()
        if outright is not None:
            return outright
        tally = points if self.first_to is not None else wins
        for s in range(self.sides):
            if tally[s] >= self.need:
                return s
        return None

    def over(self) -> bool:
        return self.winner() is not None

    def next_dealer(self) -> int:
        """The loser deals first in the next game: the first seat after the
        last dealer that belongs to the side with the lowest score."""
        g = self.game
        loser = g.trailer()
        seat = g.dealer()
        for _ in range(self.players):
            seat = (seat + 1) % self.players
            if seat % self.sides == loser:
                return seat
        return seat

    def next_game(self) -> Game:
        if not self.game.over():
            raise CoreError(_GAME_NOT_OVER, ())
        if self.over():
            raise CoreError(_MATCH_OVER, ())
        self.closed.append(self.result(len(self.closed)))  # type: ignore[arg-type]  # (over: a result)
        self.games.append(Game(self.players, self.target, self.next_dealer()))
        return self.game

    def restart_game(self) -> None:
        """Start the current game again, same dealer, no events."""
        g = self.game
        self.games[-1] = Game(g.players, g.target, g.first_dealer)

    def forget_closed(self) -> None:
        """Drop the ledgers of finished games (a board logs them first)."""
        del self.games[:-1]
