# Barbu: the seven contracts, doubles, and a rubber's score sheet checks.
import json

from cribrules.barbu import CONTRACTS, DEALS, TOTALS, Rubber, contract_scores, load_rubber, settle

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
    assert r.over()
    assert r.check() == []
    assert sum(r.totals()) == 0
    for d in range(4):
        assert sum(r.round_totals(d)) == 0
    raises(ValueError, r.add, "barbu", RESULTS["barbu"])


def test_a_contract_twice_in_a_round_is_refused():
    r = Rubber()
    r.add("queens", RESULTS["queens"], obliged(0, 0))
    assert "already played" in raises(ValueError, r.add, "queens", RESULTS["queens"])
    assert len(r.deals) == 1
    assert "queens" not in r.remaining()


def test_the_dealer_doubles_no_one_but_may_redouble_and_a_pair_has_one_bet():
    r = Rubber(names=["Ana", "Bea", "Carlos", "Dani"])
    msg = raises(ValueError, r.add, "queens", RESULTS["queens"], [[0, 2, False]])
    assert "Ana deals: the dealer doubles no one" in msg
    assert r.deals == []
    r.add("queens", RESULTS["queens"], [[1, 0, True], [2, 0, False], [3, 1, False]])  # Ana redoubles Bea
    msg = raises(ValueError, r.add, "tricks", RESULTS["tricks"], [[1, 2, False], [2, 1, False]])
    assert "Bea and Carlos have two bets on one deal" in msg
    for bad in ([[True, 0, False]], [[1, 0, 1]], [[1, 4, False]], [[2, 2, False]], [[1, 0]], None, 5, [5]):
        raises(ValueError, r.add, "tricks", RESULTS["tricks"], bad)
    assert len(r.deals) == 1
    raises(ValueError, Rubber().add, "barbu", {"taker": True})
    raises(ValueError, Rubber().add, "tricks", {"tricks": [4, 3, 3, True]})


def test_a_round_short_of_doubles_is_recorded_marked_and_warned_in_time():
    r = Rubber()
    for k, c in enumerate(CONTRACTS[:4]):
        doubles = [[1, 0, False], [2, 0, False]] if k < 2 else []
        r.add(c, RESULTS[c], doubles)
    assert r.doubled_dealer(3) == [0, 2, 2, 0]
    assert r.duty() == [(3, 0, 2, 3)]
    r.add(CONTRACTS[4], RESULTS[CONTRACTS[4]], [[3, 0, True]])
    assert r.duty() == [(3, 1, 1, 2)]  # seat 4 must still double once in the last two deals
    r.add(CONTRACTS[5], RESULTS[CONTRACTS[5]])
    assert r.duty() == [(3, 1, 1, 1)]  # ... in the very last one
    r.add("domino", RESULTS["domino"], [[1, 0, False]])  # played as it was: recorded, not refused
    assert len(r.deals) == 7
    assert r.dealer() == 1
    assert r.remaining() == list(CONTRACTS)
    assert r.shortfalls() == [(0, 3, 1)]
    assert r.duty() == [(0, 0, 2, 7), (2, 0, 2, 7), (3, 0, 2, 7)]
    rec = json.loads(json.dumps(r.to_record()))
    assert rec["shortfalls"] == [{"dealer": 0, "player": 3, "doubled": 1}]
    assert load_rubber(rec).shortfalls() == r.shortfalls()


def _lcg(seed):
    state = [seed]

    def draw(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return state[0] % n

    return draw


def _random_result(contract, draw):
    seats = [0, 1, 2, 3]
    order = []
    while seats:
        order.append(seats.pop(draw(len(seats))))

    def counts(total):
        c = [0, 0, 0, 0]
        for _ in range(total):
            c[draw(4)] += 1
        return c

    if contract == "barbu":
        return {"taker": draw(4)}
    if contract == "hearts":
        h = counts(13)
        ace = 0
        while not h[ace]:
            ace += 1
        return {"hearts": h, "ace": ace}
    if contract == "queens":
        return {"queens": counts(4)}
    if contract in ("tricks", "trumps"):
        return {"tricks": counts(13)}
    if contract == "last2":
        return {"twelfth": draw(4), "thirteenth": draw(4)}
    return {"order": order}


def test_every_accepted_rubber_keeps_each_round_and_the_whole_at_zero():
    for seed in range(12):
        draw = _lcg(seed)
        r = Rubber(first_dealer=draw(4))
        while not r.over():
            dealer = r.dealer()
            left = r.remaining()
            c = left[draw(len(left))]
            doubles, pairs = [], []
            for _ in range(draw(5)):
                a, b = draw(4), draw(4)
                pair = (min(a, b), max(a, b))
                if a != b and a != dealer and pair not in pairs:
                    pairs.append(pair)
                    doubles.append([a, b, draw(3) == 0])
            r.add(c, _random_result(c, draw), doubles)
            assert sum(r.round_totals(dealer)) == sum(TOTALS[d[1]] for d in r.deals if d[0] == dealer)
        assert r.check() == []
        assert sum(r.totals()) == 0
        assert load_rubber(json.loads(json.dumps(r.to_record()))).totals() == r.totals()


def test_record_round_trip_and_tampering():
    r = full_rubber()
    rec = json.loads(json.dumps(r.to_record()))
    again = load_rubber(rec)
    assert again.totals() == r.totals()
    assert again.check() == []
    rec["deals"][3]["result"] = {"tricks": [13, 0, 0, 1]}
    assert "deal 4" in raises(ValueError, load_rubber, rec)
    for doubles in (None, 5, [5], [[1, 0]], "2x1"):
        rec = json.loads(json.dumps(r.to_record()))
        rec["deals"][2]["doubles"] = doubles
        assert "deal 3" in raises(ValueError, load_rubber, rec)
    rec["deals"][2] = 7
    assert "deal 3" in raises(ValueError, load_rubber, rec)
