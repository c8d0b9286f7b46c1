# The discard: which cards to throw to the crib, ranked by expected points,
# exact under a stated model (pegging and board position are not counted):
#
#   E[hand]  the four kept cards with the starter, over every unseen card.
#   E[crib]  the thrown cards with the crib's other cards and the starter:
#            2 players, the opponent's two a uniformly random pair of the 46
#            unseen and the starter one of the 44 left; 3 and 4 players, the
#            other three a uniformly random 3-subset of the 47 unseen (the
#            deck card in 3-player), the starter one of the 44 left.
#
# Fifteens, pairs and runs depend only on the five ranks, so every outcome
# with the same ranks counts at once: a 5-rank multiset's score is looked up
# (scored once by cribrules.show, the one scorer), weighted by how many ways
# the unseen cards make those ranks. Flush and nobs are counted in closed
# form from the suits left. Integers only: every expectation is a numerator
# over one denominator, the number of equally likely crib outcomes.
from gc import collect as gc_collect

from cribcore import CoreError, const
from cribrules.cards import JACK, check_distinct
from cribrules.show import score

_PLAYERS = const(201)  # the codes of cribcore.messages
_DEALT = const(801)

_RANKS = 13
_POW = [5**r for r in range(_RANKS)]  # a multiset's code: the sum of 5**rank (counts <= 4 never carry)
_FIELD = 22  # packed fifteens, pairs, runs: each sum of weight * points stays below 2**22
_MASK = (1 << _FIELD) - 1
_BINOM = [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]]

KINDS = ("fifteens", "pairs", "runs", "flush", "nobs")

_FIVE_RANK_SETS = 6175  # multisets of 5 of the 13 ranks, none five times
_table = None  # type: dict[int, int] | None  # code of a 5-rank multiset -> packed (fifteens, pairs, runs)


def _choose(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def _multisets(available: list[int], k: int) -> tuple[list[int], list[int]]:
    """(codes, ways): every multiset of k ranks the cards available (a count
    by rank) can make, and in how many ways. A knapsack over the ranks, each
    taken 0 to 4 times; flat lists of integers, light on a small heap."""
    codes = [[0]] + [[] for _ in range(k)]  # type: list[list[int]]
    ways = [[1]] + [[] for _ in range(k)]  # type: list[list[int]]
    for r in range(_RANKS):
        n = available[r]
        for size in range(k - 1, -1, -1):  # from the top, so no rank is taken twice over
            if not codes[size]:
                continue
            m = 1
            while m <= n and size + m <= k:
                add = m * _POW[r]
                times = _BINOM[n][m]
                codes[size + m].extend([c + add for c in codes[size]])
                ways[size + m].extend([w * times for w in ways[size]])
                m += 1
    return codes[k], ways[k]


def rank_table() -> dict[int, int]:
    """Fifteens, pairs and runs of every 5-rank multiset, packed, by code
    (built once: 6,175 scorings by cribrules.show). The scores go first into
    a preallocated buffer and the table is filled after, so a small heap
    never has the scorer's garbage between the table's growing blocks."""
    global _table
    if _table is None:
        codes = [0] * _FIVE_RANK_SETS
        scores = bytearray(3 * _FIVE_RANK_SETS)
        cards = [0, 0, 0, 0, 0]
        i = 0
        for a in range(_RANKS):
            for b in range(a, _RANKS):
                for c in range(b, _RANKS):
                    for d in range(c, _RANKS):
                        for e in range(d + (a == d), _RANKS):  # never five of a rank
                            ranks = (a, b, c, d, e)
                            for j in range(5):  # one suit for each card of a rank
                                cards[j] = ranks[j] * 4 + j - ranks.index(ranks[j])
                            s = score(cards[:4], cards[4], True)
                            codes[i] = _POW[a] + _POW[b] + _POW[c] + _POW[d] + _POW[e]
                            scores[3 * i] = s.fifteens
                            scores[3 * i + 1] = s.pairs
                            scores[3 * i + 2] = s.runs
                            i += 1
        gc_collect()
        t = dict.fromkeys(codes, 0)  # sized once (MicroPython too): no growing, no holes left behind
        for i in range(len(codes)):
            t[codes[i]] = (scores[3 * i] << (2 * _FIELD)) | (scores[3 * i + 1] << _FIELD) | scores[3 * i + 2]
        _table = t
    return _table


def _unpack(v: int, times: int) -> list[int]:
    return [((v >> (2 * _FIELD)) & _MASK) * times, ((v >> _FIELD) & _MASK) * times, (v & _MASK) * times]


class Throw:
    """One way to discard: the cards thrown and kept, and the expectations
    of the hand and the crib by kind (KINDS), as numerators over the
    analysis' denominator; net is hand plus crib (your crib or your
    partner's) or hand minus crib (an opponent's)."""

    def __init__(self, thrown: list[int], kept: list[int], hand: list[int], crib: list[int], net: int) -> None:
        self.thrown = thrown
        self.kept = kept
        self.hand = hand
        self.crib = crib
        self.net = net


def analyse(cards: list[int], players: int = 2, own_crib: bool = True) -> tuple[int, list[Throw]]:
    """(denominator, [Throw]) for every throw from these cards, best net
    first (equal nets in the order the throws were listed). 6 cards for 2
    players (2 thrown), 5 for 3 or 4 (1 thrown). ValueError names the problem."""
    if players not in (2, 3, 4):
        raise CoreError(_PLAYERS, (players,))
    want = 6 if players == 2 else 5
    if len(cards) != want:
        raise CoreError(_DEALT, (players, want, len(cards)))
    check_distinct(cards)
    unseen = 52 - want
    k = 2 if players == 2 else 3  # the crib's cards from other hands (or the deck), besides the starter
    outcomes = _choose(unseen, k + 1) * (k + 1)  # each random set, with each of its cards as the starter
    per_starter = outcomes // unseen  # a hand outcome (a starter) counts this many crib outcomes
    by_rank = [4] * _RANKS
    by_suit = [13] * 4
    for c in cards:
        by_rank[c >> 2] -= 1
        by_suit[c & 3] -= 1
    table = rank_table()
    crib_codes, crib_ways = _multisets(by_rank, k + 1)  # the ranks the crib's unseen cards can make, how often
    # Nobs from a jack among the other players' crib cards: the same for every throw.
    their_jacks = 0
    for s in range(4):
        if JACK * 4 + s not in cards:
            their_jacks += (by_suit[s] - 1) * _choose(unseen - 2, k - 1)
    starters = [(_POW[r], by_rank[r]) for r in range(_RANKS) if by_rank[r]]
    crib_ranks = {}  # type: dict[int, int]  # thrown ranks' code -> packed crib sums (throws of the same ranks share them)
    throws = []
    for thrown in _throws(cards, want - 4):
        kept = [c for c in cards if c not in thrown]
        code = 0
        for c in kept:
            code += _POW[c >> 2]
        packed = 0
        for add, n in starters:
            packed += table[code + add] * n
        hand = _unpack(packed, per_starter)
        suit = kept[0] & 3
        hand.append(
            (4 * unseen + by_suit[suit]) * per_starter
            if kept[1] & 3 == suit and kept[2] & 3 == suit and kept[3] & 3 == suit
            else 0
        )
        nobs = 0
        for c in kept:
            if c >> 2 == JACK:
                nobs += by_suit[c & 3] * per_starter
        hand.append(nobs)
        code = 0
        for c in thrown:
            code += _POW[c >> 2]
        shared = crib_ranks.get(code)
        if shared is None:
            shared = crib_ranks[code] = sum([w * table[code + m] for m, w in zip(crib_codes, crib_ways)])
        crib = _unpack(shared, k + 1)
        suit = thrown[0] & 3
        same = True
        for c in thrown:
            if c & 3 != suit:
                same = False
        crib.append(5 * (k + 1) * _choose(by_suit[suit], k + 1) if same else 0)
        nobs = their_jacks
        for c in thrown:
            if c >> 2 == JACK:
                nobs += by_suit[c & 3] * _choose(unseen - 1, k)
        crib.append(nobs)
        net = sum(hand) + sum(crib) if own_crib else sum(hand) - sum(crib)
        throws.append(Throw(thrown, kept, hand, crib, net))
    order = sorted(range(len(throws)), key=lambda i: (-throws[i].net, i))
    return outcomes, [throws[i] for i in order]


def _throws(cards: list[int], n: int) -> list[list[int]]:
    """Every choice of n cards (1 or 2) to throw, in the order of the cards."""
    out = []  # type: list[list[int]]
    for i in range(len(cards)):
        if n == 1:
            out.append([cards[i]])
        else:
            for j in range(i + 1, len(cards)):
                out.append([cards[i], cards[j]])
    return out
