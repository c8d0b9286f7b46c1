# Test helpers that work under pytest and under MicroPython alike.


def raises(exc, fn, *args, **kwargs):
    """Call fn and return the message of the exc it must raise."""
    try:
        fn(*args, **kwargs)
    except exc as e:
        return str(e)
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn), exc.__name__))


class Lcg:
    """A tiny deterministic random source, identical on every runtime."""

    def __init__(self, seed):
        self.state = seed & 0x7FFFFFFF

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n

    def sample(self, items, k):
        pool = list(items)
        out = []
        for _ in range(k):
            out.append(pool.pop(self.below(len(pool))))
        return out


def peg_to(game, side, score, chunk=20):
    """Move side's front peg up to score in pegging entries of at most chunk."""
    while game.score(side) < score:
        game.add(side, min(chunk, score - game.score(side)))


def finish(game, loser_scores, winner):
    """Play a game to the end: each loser to its score, then winner to the target."""
    for side in range(len(loser_scores)):
        if side != winner:
            peg_to(game, side, loser_scores[side])
    peg_to(game, winner, game.target)


def snapshot(g):
    """Everything a player can see of a game, to compare before and after."""
    sides = range(g.sides)
    return (g.scores(), [g.back(s) for s in sides], g.dealer(), g.winner(), g.cursor, len(g.events))
