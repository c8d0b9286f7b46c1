# The discard advisor against a plain enumeration (CPython only: about
# 700,000 scorings a hand, a second each here, minutes on MicroPython): for
# every throw, every starter for the hand and every crib the model allows,
# each scored by cribrules.show, averaged with exact fractions. And the rank
# table the advisor looks up, all of it, against the reference scorer.
from fractions import Fraction
from itertools import combinations

from cribrules.discard import KINDS, analyse, rank_table
from cribrules.show import score

from check import Lcg
from reference import reference_score


def plain(cards, players, thrown):
    """(hand, crib) expectations by kind for one throw, by enumeration."""
    unseen = [c for c in range(52) if c not in cards]
    kept = [c for c in cards if c not in thrown]
    hand = [0] * 5
    for s in unseen:
        got = score(kept, s)
        for i, k in enumerate(KINDS):
            hand[i] += getattr(got, k)
    crib = [0] * 5
    outcomes = 0
    for others in combinations(unseen, 2 if players == 2 else 3):  # the opponent's pair, or the other three
        four = list(thrown) + list(others)
        for s in unseen:
            if s in others:
                continue
            got = score(four, s, True)
            outcomes += 1
            for i, k in enumerate(KINDS):
                crib[i] += getattr(got, k)
    return [Fraction(v, len(unseen)) for v in hand], [Fraction(v, outcomes) for v in crib]


def test_the_advisor_agrees_with_a_plain_enumeration_of_every_starter_and_crib():
    rng = Lcg(2026)
    for players, n, throws in ((2, 6, 15), (2, 6, 15), (3, 5, 2), (4, 5, 1)):
        cards = rng.sample(range(52), n)
        d, rows = analyse(cards, players)
        for r in rows[:throws]:
            hand, crib = plain(cards, players, r.thrown)
            assert [Fraction(v, d) for v in r.hand] == hand, (cards, r.thrown)
            assert [Fraction(v, d) for v in r.crib] == crib, (cards, r.thrown)


def test_every_entry_of_the_rank_table_agrees_with_the_reference_scorer():
    table = rank_table()
    for code, packed in table.items():
        ranks = [r for r in range(13) for _ in range(code // 5**r % 5)]
        cards = [r * 4 + ranks[:i].count(r) for i, r in enumerate(ranks)]
        _, f, p, runs, _, _ = reference_score(cards[:4], cards[4], True)
        assert (packed >> 44, (packed >> 22) & (2**22 - 1), packed & (2**22 - 1)) == (f, p, runs), ranks
    assert len(table) == 6175
