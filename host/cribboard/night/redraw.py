# The rest of a night drawn again when the room changes: a player who
# arrives late joins, one who leaves is out, from a round not yet begun.
# The rounds already begun stay as they are; the new ones keep their rule:
# no two players meet twice (counting every pair drawn before), and no
# player sits out twice while another has not sat out. A fresh round robin
# of the new room is tried first (it needs no search), then a search a
# round at a time, with restarts, each bounded: a room that cannot be
# drawn gets a clear error naming the most rounds that could be.
import random
from collections.abc import Iterable, Sequence

from cribboard.night.draw import DrawError, Seating, check, draw, seat
from cribboard.text.i18n import _

_ROBINS = 20  # fresh round robins tried
_ATTEMPTS = 60  # searches from the start...
_STEPS = 1000  # ...each round's pairs sought in this many steps at most...
_ALL_STEPS = 20000  # ...and all of them in this many: a room that cannot be drawn is told so in about a second


def met_in(rounds: Iterable[Sequence[Seating]]) -> tuple[set[frozenset[int]], set[int]]:
    """The pairs drawn, and the players who sat out, in these rounds."""
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    for games in rounds:
        for g in games:
            if g.second is None:
                byes.add(g.first)
            else:
                met.add(frozenset((g.first, g.second)))
    return met, byes


def redraw(
    players: Sequence[int],
    rounds: int,
    tables: Sequence[str],
    seed: int,
    before: Sequence[Sequence[Seating]],
) -> tuple[tuple[Seating, ...], ...]:
    """`rounds` more rounds for these players after the rounds `before`; DrawError if they cannot be drawn."""
    names, boards = check(players, rounds, tables)
    met, byes = met_in(before)
    turn = sum(1 for games in before for g in games if g.second is not None)
    rng = random.Random(seed)
    for k in range(_ROBINS):
        fresh = draw(names, rounds, boards, seed + k).rounds
        new_met, new_byes = met_in(fresh)
        if not new_met & met and _byes_fair(new_byes, byes, names, rounds):
            return seat([[(g.first, g.second) for g in games] for games in fresh], boards, rng, turn)
    best = 0
    budget = [_ALL_STEPS]
    for _attempt in range(_ATTEMPTS):
        plan = _search(names, rounds, set(met), set(byes), rng, budget)
        if len(plan) == rounds:
            return seat(plan, boards, rng, turn)
        best = max(best, len(plan))
        if budget[0] <= 0:
            break
    raise DrawError(
        _(
            "no %(rounds)d rounds could be drawn for these %(players)d players with no one meeting twice "
            "(%(best)d could): give fewer rounds"
        )
        % {"rounds": rounds, "players": len(names), "best": best}
    )


def _byes_fair(new_byes: set[int], byes: set[int], names: Sequence[int], rounds: int) -> bool:
    """No one sits out again while someone present has not (a round robin sits each out at most once)."""
    if len(names) % 2 == 0:
        return True
    fresh = [n for n in names if n not in byes]
    return not (new_byes & byes) or len(fresh) < rounds


def _search(
    names: Sequence[int],
    rounds: int,
    met: set[frozenset[int]],
    byes: set[int],
    rng: random.Random,
    budget: list[int],
) -> list[list[tuple[int, int | None]]]:
    """Rounds drawn one after another, as many as can be (a round's pairs found by a bounded search)."""
    plan: list[list[tuple[int, int | None]]] = []
    for _r in range(rounds):
        order = list(names)
        rng.shuffle(order)
        sitting: list[int | None] = [None]
        if len(order) % 2:
            # who sits out: first those who have not yet
            sitting = [n for n in sorted(order, key=lambda n: n in byes)]  # (a list of int | None: the bye is None)
        pairs = None
        for out in sitting[:3]:  # (a few tries: the search is bounded)
            rest = [n for n in order if n != out]
            steps = [min(_STEPS, budget[0])]
            pairs = _pairs(rest, met, rng, steps)
            budget[0] -= min(_STEPS, budget[0]) - max(steps[0], 0)
            if pairs is not None:
                if out is not None:
                    byes.add(out)
                    pairs.append((out, None))
                break
        if pairs is None:
            return plan
        for a, b in pairs:
            if b is not None:
                met.add(frozenset((a, b)))
        plan.append(pairs)
    return plan


def _pairs(
    rest: list[int], met: set[frozenset[int]], rng: random.Random, steps: list[int]
) -> list[tuple[int, int | None]] | None:
    """Every player of rest paired with one not met, or None (none found within the steps left)."""
    if not rest:
        return []
    steps[0] -= 1
    if steps[0] < 0:
        return None
    first, others = rest[0], rest[1:]
    choices = [n for n in others if frozenset((first, n)) not in met]
    rng.shuffle(choices)
    for partner in choices:
        found = _pairs([n for n in others if n != partner], met, rng, steps)
        if found is not None:
            return [(first, partner), *found]
    return None
