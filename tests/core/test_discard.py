# The discard advisor: hand-worked expectations, the rank table against the
# reference scorer, the hand part against a plain enumeration, and the
# symmetries any right answer has. (The crib against a plain enumeration of
# every crib, 45,540 a throw, is tests/test_discard_plain.py: CPython only.)
import gc

from cribrules.cards import parse
from cribrules.discard import analyse, rank_table

from check import Lcg, raises
from reference import reference_score


def throw_of(rows, text):
    want = sorted(parse(text))
    for r in rows:
        if sorted(r.thrown) == want:
            return r
    raise AssertionError("no throw %s" % text)


def reduced(n, d):
    a, b = n, d
    while b:
        a, b = b, a % b
    return (n // a, d // a)


def test_keeping_4_4_5_5_counts_both_double_double_runs():
    # Starters: 3 makes 3-4-4-5-5 and 6 makes 4-4-5-5-6, each four runs of
    # three (12) with two pairs. By starter rank, with the unseen count:
    #   A x4: 15s 4 (1+4+5+5 twice), pairs 4          2 x4: 15s 4, pairs 4
    #   3 x4: runs 12, pairs 4                        4 x2: pairs 8 (4-4-4, 5-5)
    #   5 x2: 15s 2 (5+5+5), pairs 8                  6 x4: 15s 8, pairs 4, runs 12
    #   7 x4: 15s 2 (4+4+7), pairs 4                  8, 9 x4 each: pairs 4
    #   10, J x4, Q, K x3 (14 cards): 15s 4 (10+5 twice), pairs 4
    # fifteens 16+16+4+32+8+56 = 132, pairs 46*4 + 2*4 + 2*4 = 200, runs 48+48 = 96.
    d, rows = analyse(parse("4H 4S 5D 5C KH QS"))
    r = throw_of(rows, "KH QS")
    assert [reduced(v, d) for v in r.hand] == [reduced(132, 46), reduced(200, 46), reduced(96, 46), (0, 1), (0, 1)]
    assert reduced(sum(r.hand), d) == (214, 23)
    assert d == 45540  # 1,035 pairs the opponent may throw, times 44 starters


def test_a_four_card_hand_flush_with_and_without_the_starter():
    d, rows = analyse(parse("2H 4H 6H 8H KS QC"))
    r = throw_of(rows, "KS QC")
    # 4 for every starter, 5 with one of the 9 unseen hearts: (4*46 + 9) / 46.
    assert reduced(r.hand[3], d) == (193, 46)
    assert throw_of(rows, "8H KS").hand[3] == 0  # three hearts kept: no flush


def test_suited_throws_can_make_a_crib_flush_only_with_all_five():
    d, rows = analyse(parse("2H 3H 9H TH KS QC"))
    # Thrown 2H 3H: the opponent's two and the starter all hearts, from 9
    # unseen: C(9,3) sets, each with 3 choices of starter, 5 points.
    assert reduced(throw_of(rows, "2H 3H").crib[3], d) == reduced(5 * 3 * 84, 45540)
    assert throw_of(rows, "2H KS").crib[3] == 0
    assert throw_of(rows, "KS QC").crib[3] == 0


def test_nobs_from_a_thrown_jack_and_from_the_unseen_jacks():
    d, rows = analyse(parse("JH 2C 5D 6S 9S KD"))
    # JH thrown: the starter a heart, 12 of 46 = 270/1035. Each unseen jack
    # (JC, JD, JS) in the opponent's pair with a starter of its suit:
    # (unseen of the suit - 1) / 1035: 11 + 10 + 10. Total 301/1035.
    assert reduced(throw_of(rows, "JH 2C").crib[4], d) == (301, 1035)
    assert reduced(throw_of(rows, "2C 5D").crib[4], d) == (31, 1035)
    # JH kept: the starter one of the 12 unseen hearts.
    assert reduced(throw_of(rows, "2C 5D").hand[4], d) == (6, 23)  # 12/46


def test_three_and_four_players_throw_one_card_to_a_crib_of_three_unseen():
    for players in (3, 4):
        d, rows = analyse(parse("5H 5S JD 4C 6H"), players)
        assert d == 4324 * 165  # C(47,4) sets of the crib's other three and the starter, 4 starters each
        assert len(rows) == 5
        assert all(len(r.thrown) == 1 and len(r.kept) == 4 for r in rows)
    d, rows = analyse(parse("2H 3H 4H 5H JS"), 4)
    # Thrown 5H: the other three and the starter all hearts, from 9 unseen.
    assert reduced(throw_of(rows, "5H").crib[3], d) == reduced(5 * 4 * 126, d)


def test_bad_input_is_refused_with_the_reason():
    assert "give 6, not 5" in raises(ValueError, analyse, parse("5H 5S JD 4C 6H"))
    assert "give 5, not 6" in raises(ValueError, analyse, parse("5H 5S JD 4C 6H 7C"), 3)
    assert "duplicate" in raises(ValueError, analyse, [1, 1, 2, 3, 4, 5])
    assert "2, 3 or 4" in raises(ValueError, analyse, parse("5H 5S JD 4C 6H 7C"), 5)


def test_the_rank_table_agrees_with_the_reference_scorer():
    table = rank_table()
    assert len(table) == 6175  # 5-rank multisets, no rank five times
    seen = 0
    for code in sorted(table)[::7]:
        ranks = []
        for r in range(13):
            n = code // 5**r % 5
            ranks += [r] * n
        cards = [r * 4 + ranks[:i].count(r) for i, r in enumerate(ranks)]
        _, f, p, runs, _, _ = reference_score(cards[:4], cards[4], True)
        packed = table[code]
        assert (packed >> 44, (packed >> 22) & (2**22 - 1), packed & (2**22 - 1)) == (f, p, runs), ranks
        seen += 1
    assert seen == 883


def test_every_hand_expectation_agrees_with_a_plain_enumeration():
    rng = Lcg(18)
    for players, n in ((2, 6), (3, 5)):
        cards = rng.sample(range(52), n)
        d, rows = analyse(cards, players)
        unseen = [c for c in range(52) if c not in cards]
        for r in rows:
            sums = [0] * 5
            for s in unseen:
                got = reference_score(r.kept, s)
                for i in range(5):
                    sums[i] += got[i + 1]
            assert [v * len(unseen) for v in r.hand] == [v * d for v in sums], (cards, r.thrown)


def values(rows):
    return sorted([(tuple(sorted(r.thrown)), tuple(r.hand), tuple(r.crib), r.net) for r in rows])


def test_permuting_the_cards_or_the_suits_changes_no_value():
    rng = Lcg(7)
    for _ in range(3):
        cards = rng.sample(range(52), 6)
        base = values(analyse(cards)[1])
        assert values(analyse(rng.sample(cards, 6))[1]) == base
        suits = rng.sample(range(4), 4)
        moved = [c & ~3 | suits[c & 3] for c in cards]
        back = {c & ~3 | suits[c & 3]: c for c in cards}
        relabelled = sorted(
            [
                (tuple(sorted([back[c] for c in r.thrown])), tuple(r.hand), tuple(r.crib), r.net)
                for r in analyse(moved)[1]
            ]
        )
        assert relabelled == base


def own_against_theirs(players, n, seed):
    cards = Lcg(seed).sample(range(52), n)
    _, own = analyse(cards, players, True)
    gc.collect()  # two analyses at once on a Pico-sized heap: the first one's lists gone
    _, theirs = analyse(cards, players, False)
    by = {tuple(r.thrown): r for r in theirs}
    for r in own:
        assert r.net - by[tuple(r.thrown)].net == 2 * sum(r.crib)
    assert [r.net for r in own] == sorted([r.net for r in own], reverse=True)
    assert [r.net for r in theirs] == sorted([r.net for r in theirs], reverse=True)


def test_own_and_opponents_crib_nets_differ_by_twice_the_crib_with_two_players():
    own_against_theirs(2, 6, 3)


def test_own_and_opponents_crib_nets_differ_by_twice_the_crib_with_four_players():
    own_against_theirs(4, 5, 3)
