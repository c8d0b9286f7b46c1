# Barbu: the seven contracts, doubles, and a rubber's score sheet checks.
import json

from cribcore.barbu import CONTRACTS, DEALS, TOTALS, Rubber, contract_scores, load_rubber, settle

from check import raises

RESULTS = {
    "barbu": {"taker": 2},
    "hearts": {"hearts": [5, 4, 3, 1], "ace": 1},
    "queens": {"queens": [1, 3, 0, 0]},
    "tricks": {"tricks": [4, 3, 3, 3]},
    "last2": {"twelfth": 0, "thirteenth": 3},
    "trumps": {"tricks": [5, 2, 2, 4]},
    "domino": {"order": [3, 0, 2, 1]},
}


def test_each_contract_scores_as_the_table_says():
    assert contract_scores("barbu", RESULTS["barbu"]) == [0, 0, -20, 0]
    assert contract_scores("hearts", RESULTS["hearts"]) == [-10, -12, -6, -2]  # the ace: -6
    assert contract_scores("queens", RESULTS["queens"]) == [-6, -18, 0, 0]
    assert contract_scores("tricks", RESULTS["tricks"]) == [-8, -6, -6, -6]
    assert contract_scores("last2", RESULTS["last2"]) == [-10, 0, 0, -20]
    assert contract_scores("trumps", RESULTS["trumps"]) == [25, 10, 10, 20]
    assert contract_scores("domino", RESULTS["domino"]) == [20, -10, 10, 45]
    for c in CONTRACTS:
        assert sum(contract_scores(c, RESULTS[c])) == TOTALS[c]
    assert sum(TOTALS.values()) == 0


def test_impossible_results_are_refused():
    assert "13" in raises(ValueError, contract_scores, "tricks", {"tricks": [4, 4, 4, 4]})
    assert "4" in raises(ValueError, contract_scores, "queens", {"queens": [2, 2, 1, 0]})
    raises(ValueError, contract_scores, "hearts", {"hearts": [13, 0, 0, 0], "ace": 2})
    raises(ValueError, contract_scores, "domino", {"order": [0, 0, 1, 2]})
    raises(ValueError, contract_scores, "barbu", {"taker": 4})
    raises(ValueError, contract_scores, "poker", {})


def test_a_double_is_a_side_bet_between_two_players():
    raw = contract_scores("queens", RESULTS["queens"])  # -6, -18, 0, 0
    assert settle(raw, [[0, 1, False]]) == [6, -30, 0, 0]
    assert settle(raw, [[0, 1, True]]) == [18, -42, 0, 0]  # redoubled: twice
    assert settle(raw, [[1, 2, False]]) == [-6, -36, 18, 0]  # a bad double costs the doubler
    assert sum(settle(raw, [[0, 1, True], [2, 3, False], [3, 1, False]])) == -24


def obliged(dealer, k):
    """Doubles that meet the rule: each other seat doubles the dealer in the
    first two of his seven deals."""
    return [[p, dealer, False] for p in range(4) if p != dealer] if k < 2 else []


def full_rubber():
    r = Rubber(first_dealer=1)
    for n in range(DEALS):
        d = r.dealer()
        assert d == (1 + n // 7) % 4
        c = r.remaining()[0]
        r.add(c, RESULTS[c], obliged(d, n % 7))
    return r


def test_a_full_rubber_sums_to_zero_round_by_round():
    r = full_rubber()
    assert r.over() and r.check() == [] and sum(r.totals()) == 0
    for d in range(4):
        assert sum(r.round_totals(d)) == 0
    raises(ValueError, r.add, "barbu", RESULTS["barbu"])


def test_a_contract_twice_in_a_round_is_refused():
    r = Rubber()
    r.add("queens", RESULTS["queens"], obliged(0, 0))
    assert "already played" in raises(ValueError, r.add, "queens", RESULTS["queens"])
    assert len(r.deals) == 1 and "queens" not in r.remaining()


def test_the_dealer_must_be_doubled_twice_by_each_player():
    r = Rubber()
    for k, c in enumerate(CONTRACTS[:6]):
        doubles = [[1, 0, False], [2, 0, False]] if k < 2 else []
        if k == 2:
            doubles = [[3, 0, True]]  # seat 3's first double (redoubled by the dealer)
        r.add(c, RESULTS[c], doubles)
    msg = raises(ValueError, r.add, "domino", RESULTS["domino"])
    assert "player 4 doubled the dealer fewer than 2 times" in msg and len(r.deals) == 6
    r.add("domino", RESULTS["domino"], [[3, 0, False]])
    assert r.dealer() == 1 and r.remaining() == list(CONTRACTS)
    raises(ValueError, Rubber().add, "barbu", RESULTS["barbu"], [[0, 0, False]])
    raises(ValueError, Rubber().add, "barbu", RESULTS["barbu"], [[1, 0, False], [0, 1, True]])


def test_record_round_trip_and_tampering():
    r = full_rubber()
    rec = json.loads(json.dumps(r.to_record()))
    again = load_rubber(rec)
    assert again.totals() == r.totals() and again.check() == []
    rec["deals"][3]["result"] = {"tricks": [13, 0, 0, 1]}
    assert "deal 4" in raises(ValueError, load_rubber, rec)
