# The show: hand and crib scoring, his heels, claims and muggins.
from cribrules.cards import parse
from cribrules.show import IMPOSSIBLE, check_claim, describe, his_heels, muggins, score

from check import Lcg, raises
from reference import reference_score


def hand(text, crib=False):
    cs = parse(text)
    return score(cs[:4], cs[4], crib)


def test_worked_example_from_the_rules():
    s = hand("6C 7S 8D 8H 9S")
    assert s.total == 16
    assert (s.fifteens, s.pairs, s.runs, s.flush, s.nobs) == (6, 2, 8, 0, 0)


def test_the_perfect_29():
    s = hand("5C 5D 5S JH 5H")
    assert (s.total, s.fifteens, s.pairs, s.runs, s.flush, s.nobs) == (29, 16, 12, 0, 0, 1)


def test_double_double_run_and_triple_run():
    assert hand("3C 3D 4S 4H 5S").runs == 12
    assert hand("3C 3D 4S 4H 5S").total == 20
    assert hand("7C 7D 7S 8H 9S").runs == 9
    assert hand("7C 7D 7S 8H 9S").pairs == 6
    assert hand("AC 2D 3S 4H 5S").runs == 5
    assert hand("QC KD AS 2H 4S").runs == 0  # the ace is low only


def test_pairs_go_by_rank_not_value():
    assert hand("JC QD 2S 4H 6C").pairs == 0
    assert hand("JC JD 2S 4H 6C").pairs == 2


def test_flush_rules_for_hand_and_crib():
    assert hand("2H 4H 6H 8H TC").flush == 4
    assert hand("2H 4H 6H 8H TH").flush == 5
    assert hand("2H 4H 6H 8H TC", crib=True).flush == 0
    assert hand("2H 4H 6H 8H TH", crib=True).flush == 5
    assert hand("2H 4H 6H 8C TH").flush == 0  # the starter never makes a 4-flush


def test_nobs_needs_the_jack_in_hand_of_the_starter_suit():
    assert hand("JD 2C 4S 6H 9D").nobs == 1
    assert hand("JD 2C 4S 6H 9C").nobs == 0
    assert hand("2C 4S 6H 9C JC").nobs == 0  # a jack starter is heels, not nobs


def test_his_heels():
    assert his_heels(parse("JS")[0]) == 2
    assert his_heels(parse("QS")[0]) == 0


def test_fast_scorer_agrees_with_the_rules_on_many_hands():
    rng = Lcg(2024)
    for _ in range(400):
        five = rng.sample(range(52), 5)
        for crib in (False, True):
            got = tuple(score(five[:4], five[4], crib))
            assert got == reference_score(five[:4], five[4], crib), (five, crib, got)


def test_scores_never_take_impossible_values():
    rng = Lcg(7)
    for _ in range(300):
        five = rng.sample(range(52), 5)
        t = score(five[:4], five[4]).total
        assert 0 <= t <= 29
        assert t not in IMPOSSIBLE


def test_bad_hands_are_refused():
    cs = parse("AC 2C 3C 4C 5C")
    assert "4 cards" in raises(ValueError, score, cs[:3], cs[4])
    assert "twice" in raises(ValueError, score, cs[:4], cs[0])
    raises(ValueError, score, [0, 1, 2, 60], 5)


def test_claims_and_muggins():
    for bad in IMPOSSIBLE + (30, -1):
        raises(ValueError, check_claim, bad)
    check_claim(29)
    check_claim(0)
    cs = parse("6C 7S 8D 8H 9S")
    assert muggins(cs[:4], cs[4], 12) == 4
    assert muggins(cs[:4], cs[4], 16) == 0
    assert muggins(cs[:4], cs[4], 20) == 0
    raises(ValueError, muggins, cs[:4], cs[4], 19)


def test_describe_names_what_scored():
    assert describe(hand("6C 7S 8D 8H 9S")) == "15s 6, pairs 2, runs 8 = 16"
    assert describe(hand("AC 3D 7S 9H KS")) == "nothing = 0"


def test_describe_in_other_words():
    words = ("quince", "parejas", "escaleras", "color", "nobs", "nada")
    assert describe(hand("6C 7S 8D 8H 9S"), words) == "quince 6, parejas 2, escaleras 8 = 16"
    assert describe(hand("AC 3D 7S 9H KS"), words) == "nada = 0"
