# What the night's and the tournament's benchmarks share: a step's median
# time, and every game of a draw played at its table's board (each winner
# and losing score at random, from the rng).
import statistics
import time

from cribboard.event.games import BoardGame
from cribcore.game import skunk_class


def median_ms(fn, times=5):
    out = []
    for _ in range(times):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return statistics.median(out)


def played(rounds, names, rng, board_of=lambda table: table):
    """The board games of every seated pair of these rounds, oldest first (names: by player number)."""
    games = []
    for games_of_round in rounds:
        for g in games_of_round:
            if g.second is None:
                continue
            winner, loser = rng.randrange(2), rng.randrange(40, 121)
            scores = [121, 121]
            scores[1 - winner] = loser
            on_tracks = (names[g.first], names[g.second])
            board = board_of(g.table or "")
            games.append(BoardGame(len(games) + 1, board, on_tracks, tuple(scores), winner, 121, skunk_class(loser)))
    return games
