# What the players' phones say of a game at their table: each of the two
# may claim its result (their own score and the other's) or refuse the
# other's claim; a player's last word stands. The two claiming the same
# result is a result, entered by the first and confirmed by the second; two
# results that differ, or a claim the other refused after it was made, is a
# dispute for the director; one claim alone waits for the other. Pure:
# the same words in the same order always settle the same way.
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

AGREED = "agreed"
WAITING = "waiting"  # one player's claim, the other has not answered it
DISAGREE = "disagree"  # the two claim different results
REFUSED = "refused"  # one refused the other's claim (and claimed none of their own since)

Game = tuple[int, int | None, int]  # (round, match or None, game of the match)


@dataclass(frozen=True)
class Claim:
    """A player's word on their game: scores (theirs, then the other's), or None, a refusal of the
    other's claim. The game: a night's round; in the playoffs, the round, the match's place in it and
    the match's game. id: the order the words came in."""

    id: int
    round: int
    by: int
    other: int
    scores: tuple[int, int] | None
    target: int = 121
    match: int | None = None  # a playoff match's place in its round (None: a night's round)
    number: int = 1  # the match's game

    def game(self) -> Game:
        return (self.round, self.match, self.number)

    def pair(self) -> frozenset[int]:
        return frozenset((self.by, self.other))


@dataclass(frozen=True)
class Word:
    """What a player's phone sends of their game: scores (theirs, then their opponent's), or None (a refusal
    of the opponent's claim); key: the phone's own for this word (a resend is known by it); game: a playoff
    match's game as the page showed it (None: the game in play); target: what the game was played to."""

    player: int
    scores: tuple[int, int] | None
    key: str
    game: int | None = None
    target: int = 121


@dataclass(frozen=True)
class Settled:
    """Where a game's claims stand: AGREED (the result: scores by player, who entered it and who
    confirmed it), WAITING (first: the claim waiting for the other), DISAGREE or REFUSED."""

    state: str
    first: Claim  # the earlier of the two last words (WAITING: the one word that counts)
    second: Claim | None = None

    def scores_of(self) -> dict[int, int]:
        """The claimed result by player (AGREED, WAITING), from the entering claim."""
        c = self.first
        assert c.scores is not None
        return {c.by: c.scores[0], c.other: c.scores[1]}


def settle(claims: Iterable[Claim]) -> dict[tuple[Game, frozenset[int]], Settled]:
    """Each game's claims (by game and pair) settled by the last word of each player."""
    last: dict[tuple[Game, frozenset[int]], dict[int, Claim]] = {}
    for c in sorted(claims, key=lambda c: c.id):
        last.setdefault((c.game(), c.pair()), {})[c.by] = c
    out: dict[tuple[Game, frozenset[int]], Settled] = {}
    for key, words in last.items():
        state = _state(sorted(words.values(), key=lambda c: c.id))
        if state is not None:
            out[key] = state
    return out


def _state(words: list[Claim]) -> Settled | None:
    """Where one game stands from its players' last words, earlier first."""
    claimed = [c for c in words if c.scores is not None]
    if not claimed:
        return None  # (a refusal of nothing, or of a claim taken back)
    if len(words) == 1:
        return Settled(WAITING, words[0])
    first, second = words
    if len(claimed) == 1:
        if claimed[0] is second:
            return Settled(WAITING, second)  # (a claim made after the other's refusal)
        return Settled(REFUSED, first, second)
    assert first.scores is not None and second.scores is not None
    if first.scores == second.scores[::-1] and first.target == second.target:
        return Settled(AGREED, first, second)
    return Settled(DISAGREE, first, second)


def as_row(s: Settled, order: tuple[int, int], label: Callable[[int], str]) -> dict[str, Any]:
    """Where a game's claims stand as the pages read it: its state, who claimed first and their result, and
    the other's answer (their own result, or None: a refusal or no answer yet), each result in order's
    order (the seat's, or the match's: the higher seed first)."""

    def ordered(c: Claim | None) -> list[int] | None:
        if c is None or c.scores is None:
            return None
        mine = dict(zip((c.by, c.other), c.scores))
        return [mine[order[0]], mine[order[1]]]

    return {
        "state": s.state,
        "by": label(s.first.by),
        "scores": ordered(s.first),
        "answer": ordered(s.second),
        "target": s.first.target,
    }


def said(s: Settled, label: Callable[[int], str]) -> str:
    """What each player's phone said, for the director: "Ann 121-98; Bob refused" (each their own score
    first)."""
    words = [s.first] if s.second is None else [s.first, s.second]
    return "; ".join(
        "%s %s" % (label(c.by), "-".join(map(str, c.scores)) if c.scores is not None else "\u2717") for c in words
    )
