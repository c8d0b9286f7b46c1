# Rubicon piquet, scored on a cribbage board (docs/playing.md, "Piquet"): one deal
# from the two hands held and the tricks' winners. The partie (six deals,
# eight on a tie, the rubicon) has one home, the board's ledger in
# cribcore.partie, re-exported here.
from collections import namedtuple

from cribcore import CoreError, const
from cribcore.partie import DEALS, EXTRA_DEALS, RUBICON, PiquetGame, PiquetMatch, rubicon
from cribrules.cards import ACE, JACK, KING, check_distinct, format_card

__all__ = ["DEALS", "EXTRA_DEALS", "RUBICON", "PiquetGame", "PiquetMatch", "rubicon"]

# The codes of cribcore.messages.
_HAND_SIZE = const(1001)
_NOT_PIQUET = const(1002)
_ELDER_TOOK = const(1003)
_YOUNGER_TOOK = const(1004)
_EXCHANGE = const(1005)
_TRICKS = const(1006)
_DEALT = const(1007)

ELDER = 0  # leads the first trick
YOUNGER = 1  # the dealer

# Piquet's ranks, low to high: 7 8 9 10 J Q K A (card rank indices).
ORDER = (6, 7, 8, 9, 10, 11, 12, 0)
_HIGH = {}
for _i in range(len(ORDER)):
    _HIGH[ORDER[_i]] = _i
SET_RANKS = (9, 10, 11, 12, 0)  # 10 J Q K A: the only ranks that make sets
SEQUENCE_POINTS = (0, 0, 0, 3, 4, 15, 16, 17, 18)  # by length

Deal = namedtuple(
    "Deal", ("scores", "blanche", "point", "sequences", "sets", "repique", "pique", "lead", "tricks", "cards")
)


def _pip(r: int) -> int:
    if r == ACE:
        return 11
    return 10 if r >= 9 else r + 1


def check_hands(elder: list[int] | tuple[int, ...], younger: list[int] | tuple[int, ...]) -> None:
    for who, hand in (("elder", elder), ("younger", younger)):
        if len(hand) != 12:
            raise CoreError(_HAND_SIZE, (who, len(hand)))
        for c in hand:
            if c >> 2 not in _HIGH:
                raise CoreError(_NOT_PIQUET, (format_card(c),))
    check_distinct(list(elder) + list(younger))


def point_of(hand: list[int] | tuple[int, ...]) -> tuple[int, int]:
    """(length, pip total) of the longest suit; the pip total breaks ties."""
    best = (0, 0)
    for s in range(4):
        cards = [c for c in hand if c & 3 == s]
        key = (len(cards), sum([_pip(c >> 2) for c in cards]))
        if key > best:
            best = key
    return best


def sequences_of(hand: list[int] | tuple[int, ...]) -> list[tuple[int, int]]:
    """[(length, high card order)] of every run of 3 or more in a suit."""
    out = []  # type: list[tuple[int, int]]
    for s in range(4):
        have = [False] * len(ORDER)
        for c in hand:
            if c & 3 == s:
                have[_HIGH[c >> 2]] = True
        run = 0
        for i in range(len(ORDER) + 1):
            if i < len(ORDER) and have[i]:
                run += 1
            else:
                if run >= 3:
                    out.append((run, i - 1))
                run = 0
    return out


def sets_of(hand: list[int] | tuple[int, ...]) -> list[tuple[int, int]]:
    """[(count, rank order)] of every trio or quatorze, ten or higher."""
    out = []  # type: list[tuple[int, int]]
    for r in SET_RANKS:
        n = len([c for c in hand if c >> 2 == r])
        if n >= 3:
            out.append((n, _HIGH[r]))
    return out


def _best(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> int | None:
    """0 if a is better, 1 if b is, None on a tie or when neither has any."""
    if not a and not b:
        return None
    ka = max(a) if a else (0, -1)
    kb = max(b) if b else (0, -1)
    if ka == kb:
        return None
    return 0 if ka > kb else 1


# Elder changes 1 to 5 cards with the talon; younger none up to all elder left (the Spanish piquet rules).
ELDER_EXCHANGE = (1, 5)


def check_exchange(hands: list | tuple, dealt: list | tuple) -> None:
    """The cards held against the cards dealt: elder took 1 to 5, and each
    took only cards of the talon (the 8 not dealt), so younger took at most
    what elder left there (the held hands share no card). dealt[who] is None
    where that hand was not given (taken as held)."""
    changed = [0, 0]
    for who in (ELDER, YOUNGER):
        if dealt[who] is None:
            continue
        new = [c for c in hands[who] if c not in dealt[who]]
        other = hands[1 - who] if dealt[1 - who] is None else dealt[1 - who]
        for c in new:
            if c in other and who == ELDER:
                raise CoreError(_ELDER_TOOK, (format_card(c),))
            if c in other:
                raise CoreError(_YOUNGER_TOOK, (format_card(c),))
        changed[who] = len(new)
    low, high = ELDER_EXCHANGE
    if dealt[ELDER] is not None and not low <= changed[ELDER] <= high:
        raise CoreError(_EXCHANGE, (changed[ELDER],))


def score_deal(
    elder: list[int] | tuple[int, ...],
    younger: list[int] | tuple[int, ...],
    winners: list[int],
    dealt: list | tuple | None = None,
) -> Deal:
    """Score one deal. elder and younger are the 12 cards each holds when
    declaring; winners lists who won each of the 12 tricks (ELDER or YOUNGER).
    dealt: the 12 cards each was dealt (elder's, younger's; None for a hand
    the exchange left as it was): carte blanche is a hand *dealt* without a
    face card (the Spanish piquet rules), whatever the exchange brings, and the exchange is
    checked (check_exchange); without it the held hands stand for the dealt
    ones. Returns a Deal with per-player scores and how each part went."""
    check_hands(elder, younger)
    if len(winners) != 12 or any([w not in (ELDER, YOUNGER) for w in winners]):
        raise CoreError(_TRICKS, ())
    hands = (elder, younger)
    if dealt is None:
        dealt = hands
    else:
        if len(dealt) != 2:
            raise CoreError(_DEALT, ())
        check_exchange(hands, dealt)
        dealt = (elder if dealt[0] is None else dealt[0], younger if dealt[1] is None else dealt[1])
        check_hands(dealt[0], dealt[1])
    blanche = [10 if not [c for c in h if JACK <= c >> 2 <= KING] else 0 for h in dealt]
    points = [point_of(h) for h in hands]
    p = _best([points[0]] if points[0][0] else [], [points[1]] if points[1][0] else [])
    point = [0, 0]
    if p is not None:
        point[p] = points[p][0]
    seqs = [sequences_of(h) for h in hands]
    s = _best(seqs[0], seqs[1])
    sequences = [0, 0]
    if s is not None:
        sequences[s] = sum([SEQUENCE_POINTS[min(n, 8)] for n, _ in seqs[s]])
    sts = [sets_of(h) for h in hands]
    t = _best(sts[0], sts[1])
    sets = [0, 0]
    if t is not None:
        sets[t] = sum([14 if n == 4 else 3 for n, _ in sts[t]])

    totals = [0, 0]
    repique = [0, 0]
    # Repique: 30 from combinations, counted in order, before the other scores.
    for part in (blanche, point, sequences, sets):
        for who in (ELDER, YOUNGER):
            totals[who] += part[who]
        for who in (ELDER, YOUNGER):
            if not repique[0] and not repique[1] and totals[who] >= 30 and totals[1 - who] == 0:
                repique[who] = 60
    for who in (ELDER, YOUNGER):
        totals[who] += repique[who]

    # The play: 1 for leading the first trick; each trick 1 to its leader or 2.
    pique = [0, 0]
    lead = [1, 0]
    tricks = [0, 0]
    won = [0, 0]

    def add(who: int, n: int) -> None:
        totals[who] += n
        if not any(repique) and not any(pique) and totals[who] >= 30 and totals[1 - who] == 0:
            pique[who] = 30
            totals[who] += 30

    add(ELDER, 1)
    leader = ELDER
    for w in winners:
        won[w] += 1
        n = 1 if w == leader else 2
        tricks[w] += n
        add(w, n)
        leader = w
    cards = [0, 0]
    for who in (ELDER, YOUNGER):
        if won[who] == 12:
            cards[who] = 40
        elif won[who] >= 7:
            cards[who] = 10
        totals[who] += cards[who]
    return Deal(totals, blanche, point, sequences, sets, repique, pique, lead, tricks, cards)
