# The qualifying draw of a tournament, in the ACC's formats: one game each
# against many opponents (first deal cut for at the table, or alternating
# from game to game), or two games each against many (the two alternating
# first deal). No one plays another more than twice: pairings are drawn as
# round robins over the entrants in an order the seed shuffles (a pairing
# a round; an odd field adds a bye), a second round robin only once the
# first is used up, and only in a one-game format. The tables are taken in
# turn (a two-game pairing keeps its table for both), so each is used
# within one pairing of any other. The same entrants, games, tables, format
# and seed give the same draw.
import random
from collections.abc import Sequence

from cribboard.night.draw import DrawError, Seating, check, most_rounds, seat, shuffled_robin, swapped
from cribboard.text.i18n import _

ONE_CUT = "one-cut"  # one game each against many, first deal cut for
ONE_ALTERNATING = "one-alternating"  # one game each against many, first deal alternating
TWO = "two"  # two games each against many, alternating first deal
GAMES_A_PAIRING = {ONE_CUT: 1, ONE_ALTERNATING: 1, TWO: 2}
PAIR_LIMIT = 2  # games any two entrants may play each other in qualifying
ACC_GAMES = (12, 22)  # the qualifying games an ACC tournament has, fewest and most


def most_games(entrants: int, fmt: str) -> int:
    """The qualifying games this many entrants can play in a format with no pair over the limit."""
    per = GAMES_A_PAIRING[fmt]
    return most_rounds(entrants) * (PAIR_LIMIT // per) * per


def check_format(entrants: int, games: int, fmt: str) -> None:
    if fmt not in GAMES_A_PAIRING:
        raise DrawError(_("a qualifying format is %s, not %r") % (", ".join(GAMES_A_PAIRING), fmt))
    per = GAMES_A_PAIRING[fmt]
    if games % per:
        raise DrawError(_("two games each against many is an even count of games, not %d") % games)
    most = most_games(entrants, fmt)
    if not 1 <= games <= most:
        raise DrawError(
            _(
                "%(entrants)d entrants can play 1 to %(most)d qualifying games with no one met more than "
                "twice, not %(games)d"
            )
            % {"entrants": entrants, "most": most, "games": games}
        )


def draw(
    entrants: Sequence[int], games: int, tables: Sequence[str], seed: int, fmt: str = TWO
) -> tuple[tuple[Seating, ...], ...]:
    """The qualifying rounds, one game a round each (a two-game pairing is two rounds at one table, first
    deal swapped); DrawError if they cannot be drawn as asked."""
    players, boards = check(entrants, 1, tables)
    check_format(len(players), games, fmt)
    per = GAMES_A_PAIRING[fmt]
    rng = random.Random(seed)
    pairings: list[list[tuple[int | None, int | None]]] = []
    while len(pairings) < games // per:
        pairings += shuffled_robin(players, rng)[: games // per - len(pairings)]
    seated = seat(pairings, boards, rng)
    if fmt == TWO:
        return tuple(r for games_of in seated for r in (games_of, swapped(games_of)))
    if fmt == ONE_ALTERNATING:
        return _alternating(seated)
    return seated


def _alternating(rounds: tuple[tuple[Seating, ...], ...]) -> tuple[tuple[Seating, ...], ...]:
    """First deal alternating over the field: each entrant deals first in half their games, one more or one
    less where the count is odd. The games are a graph (entrants the points, games the lines); joined up
    with a line from each point of odd degree to one point more, every point's degree is even, so its lines
    fall into closed walks, and each game's first dealer is where a walk leaves along it (Euler)."""
    ends: list[tuple[int, int]] = []
    where: list[tuple[int, int]] = []  # (round, game) of each line that is a game
    for r, games in enumerate(rounds):
        for k, g in enumerate(games):
            if g.second is not None:
                ends.append((g.first, g.second))
                where.append((r, k))
    degree: dict[int, int] = {}
    for a, b in ends:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    extra = -1  # the point more (no entrant's number)
    ends += [(p, extra) for p in sorted(degree) if degree[p] % 2]
    lines: dict[int, list[int]] = {}
    for line, (a, b) in enumerate(ends):
        lines.setdefault(a, []).append(line)
        lines.setdefault(b, []).append(line)
    used = [False] * len(ends)
    leaves: dict[int, int] = {}  # line: the point a walk leaves along it
    next_line = dict.fromkeys(lines, 0)
    for start in sorted(lines):
        stack = [start]
        while stack:
            at = stack[-1]
            mine = lines[at]
            while next_line[at] < len(mine) and used[mine[next_line[at]]]:
                next_line[at] += 1
            if next_line[at] == len(mine):
                stack.pop()
                continue
            line = mine[next_line[at]]
            used[line] = True
            leaves[line] = at
            a, b = ends[line]
            stack.append(b if at == a else a)
    out = [list(games) for games in rounds]
    for line, (r, k) in enumerate(where):
        g = out[r][k]
        if leaves[line] != g.first:
            out[r][k] = Seating(g.table, g.second or 0, g.first)
    return tuple(tuple(games) for games in out)


def meetings(rounds: Sequence[Sequence[Seating]]) -> dict[frozenset[int], int]:
    """How many games each pair plays in these rounds."""
    out: dict[frozenset[int], int] = {}
    for games in rounds:
        for g in games:
            if g.second is not None:
                key = frozenset((g.first, g.second))
                out[key] = out.get(key, 0) + 1
    return out
