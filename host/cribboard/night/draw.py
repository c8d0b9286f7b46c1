# The draw of a club night: who plays whom, at which table, round by round.
# Each player meets each other at most once, so the rounds are drawn as one
# round robin (the circle method: a player fixed, the others turning one
# place a round) over the players in an order shuffled by the seed, and the
# rounds themselves in a shuffled order: any count of rounds up to the
# round robin's is free of repeats by construction, with no search that
# could fail. An odd count of players adds a bye, which each player gets
# at most once. The tables are taken in turn across the night, so each is
# used within one game of any other, and who deals first is a coin the seed
# throws. The same players, rounds, tables and seed give the same draw.
import random
from collections.abc import Sequence
from dataclasses import dataclass

from cribboard.event.refusals import EventError
from cribboard.text.i18n import _

SEED_MAX = 2**31 - 1  # a draw's seed a director can read out and type again
ROUNDS = 9  # a night's games when the director names no count: the ACC's grass roots night


class DrawError(EventError):
    """A night that cannot be drawn as asked: a mistake in what was asked (exit status 2)."""


@dataclass(frozen=True)
class Seating:
    """One game of a round: at table (None for a bye), first deals first against second (None: a bye); players
    by their numbers in the night (cribboard.event.roster)."""

    table: str | None
    first: int
    second: int | None


@dataclass(frozen=True)
class Draw:
    seed: int
    players: tuple[int, ...]
    tables: tuple[str, ...]
    rounds: tuple[tuple[Seating, ...], ...]


def most_rounds(players: int) -> int:
    """The rounds a night of this many players can have with no pair meeting twice."""
    return players - 1 if players % 2 == 0 else players


def tables_needed(players: int) -> int:
    return players // 2


def check(players: Sequence[int], rounds: int, tables: Sequence[str]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The players and tables, if this many rounds can be drawn for them; DrawError if not."""
    names = tuple(players)
    if len(names) < 2:
        raise DrawError(_("a night needs at least two players"))
    if len(set(names)) != len(names):
        raise DrawError("a player is in the draw twice: %r" % (names,))  # (numbers: a fault, not the director's)
    if not 1 <= rounds <= most_rounds(len(names)):
        raise DrawError(
            _("%(players)d players can play 1 to %(most)d rounds with no one met twice, not %(rounds)d")
            % {"players": len(names), "most": most_rounds(len(names)), "rounds": rounds}
        )
    boards = tuple(tables)
    if len(set(boards)) != len(boards):
        raise DrawError(_("a table is named twice"))
    if len(boards) < tables_needed(len(names)):
        raise DrawError(
            _("%(players)d players need %(need)d tables a round, and there are %(have)d")
            % {"players": len(names), "need": tables_needed(len(names)), "have": len(boards)}
        )
    return names, boards


def draw(players: Sequence[int], rounds: int, tables: Sequence[str], seed: int) -> Draw:
    """The night's rounds; DrawError if it cannot be drawn as asked."""
    names, boards = check(players, rounds, tables)
    rng = random.Random(seed)
    drawn = seat(shuffled_robin(names, rng)[:rounds], boards, rng)
    return Draw(seed, names, boards, drawn)


def shuffled_robin(players: Sequence[int], rng: random.Random) -> list[list[tuple[int | None, int | None]]]:
    """A round robin of the players in an order the rng shuffles, its rounds in a shuffled order too (an odd
    count adds a bye: None)."""
    order: list[int | None] = list(players)
    rng.shuffle(order)
    if len(order) % 2:
        order.append(None)  # the bye
    robin = round_robin(order)
    rng.shuffle(robin)
    return robin


def seat(
    rounds: Sequence[Sequence[tuple[int | None, int | None]]], boards: Sequence[str], rng: random.Random, turn: int = 0
) -> tuple[tuple[Seating, ...], ...]:
    """Pairs (a None for the bye) seated at tables: each round's pairs in a shuffled order at the tables in
    turn across the night (turn: the games already seated), who deals first by the seed's coin."""
    drawn: list[tuple[Seating, ...]] = []
    for pairs in rounds:
        games: list[Seating] = []
        playing: list[tuple[int, int]] = []
        sitting_out: list[int] = []
        for a, b in pairs:  # (the bye is None: its partner sits out)
            if a is not None and b is not None:
                playing.append((a, b))
            elif a is not None:
                sitting_out.append(a)
            elif b is not None:
                sitting_out.append(b)
        rng.shuffle(playing)  # which pair sits at which table: players move between tables
        for a, b in playing:
            first, second = (a, b) if rng.random() < 0.5 else (b, a)
            games.append(Seating(boards[turn % len(boards)], first, second))
            turn += 1
        games.extend(Seating(None, name, None) for name in sitting_out)
        drawn.append(tuple(games))
    return tuple(drawn)


def round_robin(order: list[int | None]) -> list[list[tuple[int | None, int | None]]]:
    """The circle method: len(order) - 1 rounds in which every two meet once (len(order) even)."""
    n = len(order)
    fixed, ring = order[0], order[1:]
    out = []
    for r in range(n - 1):
        turned = ring[r:] + ring[:r]
        pairs = [(fixed, turned[0])] + [(turned[i], turned[n - 1 - i]) for i in range(1, n // 2)]
        out.append(pairs)
    return out


def swapped(games: Sequence[Seating]) -> tuple[Seating, ...]:
    """A round's games played again, first deal the other way (a pairing's second game)."""
    return tuple(g if g.second is None else Seating(g.table, g.second, g.first) for g in games)
