# Property tests (CPython only: hypothesis does not run on MicroPython).
from hypothesis import given, settings
from hypothesis import strategies as st

from cribcore.game import CORRECTION, HAND, PEGGING, Game
from cribrules.pegging import score_lay
from cribrules.show import IMPOSSIBLE, score

from check import snapshot

five_cards = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)
suit_maps = st.permutations([0, 1, 2, 3])


def relabel(cards, suit_map):
    return [(c & ~3) | suit_map[c & 3] for c in cards]


@given(five_cards, suit_maps, st.booleans())
def test_relabelling_suits_leaves_the_score_unchanged(cards, suit_map, crib):
    moved = relabel(cards, suit_map)
    assert score(cards[:4], cards[4], crib) == score(moved[:4], moved[4], crib)


@given(five_cards, st.booleans())
def test_scores_lie_in_0_to_29_and_never_impossible(cards, crib):
    s = score(cards[:4], cards[4], crib)
    assert 0 <= s.total <= 29
    assert s.total not in IMPOSSIBLE
    assert s.total == s.fifteens + s.pairs + s.runs + s.flush + s.nobs


@given(five_cards)
def test_hand_order_does_not_matter(cards):
    assert score(cards[:4], cards[4]) == score(cards[3::-1], cards[4])


@given(st.lists(st.integers(0, 51), min_size=1, max_size=8, unique=True), suit_maps)
def test_pegging_ignores_suits(series, suit_map):
    total = sum(min((c >> 2) + 1, 10) for c in series)
    if total <= 31:
        assert score_lay(series) == score_lay(relabel(series, suit_map))


entries = st.lists(
    st.tuples(st.integers(0, 3), st.integers(1, 29), st.sampled_from([PEGGING, HAND, CORRECTION, "deal"])),
    max_size=40,
)


@settings(max_examples=300)
@given(st.sampled_from([2, 3, 4]), st.sampled_from([121, 61]), entries, st.data())
def test_undo_restores_the_exact_earlier_state(players, target, script, data):
    g = Game(players, target)
    history = [snapshot(g)]
    for seat, points, kind in script:
        before = snapshot(g)
        try:
            if kind == "deal":
                g.pass_deal()
            else:
                g.add(seat % players, points, kind)
        except ValueError:
            assert snapshot(g) == before  # a refused entry changes nothing
            continue
        history.append(snapshot(g))
    steps = data.draw(st.integers(0, len(history) - 1))
    for _ in range(steps):
        assert g.undo()
    assert snapshot(g)[:5] == history[-1 - steps][:5]
    for _ in range(steps):
        assert g.redo()
    assert snapshot(g)[:5] == history[-1][:5]


# --- barbu: whatever happens at the table, a finished rubber sums to zero ---
from cribrules.barbu import CONTRACTS as BARBU_CONTRACTS  # noqa: E402
from cribrules.barbu import DEALS as BARBU_DEALS  # noqa: E402
from cribrules.barbu import Rubber  # noqa: E402


def counts(total):
    """Four counts adding up to total: three cut points in 0..total."""
    return (
        st.lists(st.integers(0, total), min_size=3, max_size=3)
        .map(sorted)
        .map(lambda c: [c[0], c[1] - c[0], c[2] - c[1], total - c[2]])
    )


def barbu_result(contract):
    seat = st.integers(0, 3)
    if contract == "barbu":
        return st.builds(lambda t: {"taker": t}, seat)
    if contract == "hearts":
        return counts(13).flatmap(
            lambda h: st.sampled_from([p for p in range(4) if h[p]]).map(lambda a: {"hearts": h, "ace": a})
        )
    if contract == "queens":
        return counts(4).map(lambda q: {"queens": q})
    if contract in ("tricks", "trumps"):
        return counts(13).map(lambda t: {"tricks": t})
    if contract == "last2":
        return st.builds(lambda a, b: {"twelfth": a, "thirteenth": b}, seat, seat)
    return st.permutations([0, 1, 2, 3]).map(lambda o: {"order": list(o)})


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3), st.data())
def test_every_finished_barbu_rubber_sums_to_zero(first, data):
    r = Rubber(first)
    for n in range(BARBU_DEALS):
        r.add(*barbu_deal(data, r, n))
    assert r.over()
    assert sum(r.totals()) == 0
    assert r.check() == []
    assert sorted(c for _, c, _, _, _ in r.deals) == sorted(BARBU_CONTRACTS * 4)


def barbu_deal(data, r, n):
    """A deal the table may play next: the contract, its result, the doubles
    (every other seat doubles the dealer twice in his round, as the rule
    wants; the others at random)."""
    dealer = r.dealer()
    contract = data.draw(st.sampled_from(r.remaining()))
    doubles = []
    for a in range(4):
        for b in range(a + 1, 4):
            if data.draw(st.integers(0, 3)) == 0:
                doubler, doubled = (b, a) if a == dealer else (a, b)  # the dealer doubles no one
                doubles.append([doubler, doubled, data.draw(st.booleans())])
    if n % 7 < 2:
        doubles = [d for d in doubles if dealer not in d[:2]]
        doubles += [[p, dealer, data.draw(st.booleans())] for p in range(4) if p != dealer]
    return contract, data.draw(barbu_result(contract)), doubles


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 3), st.data())
def test_every_barbu_rubber_entered_through_the_sheets_lines_keeps_each_round_and_the_rubber_at_zero(first, data):
    # The same table as above, but as the sheet reads it: each deal a line of
    # text, with undo and fix lines among them, and the sheet's own check.
    from cribboard.cli import barbu_view as view
    from cribboard.sheets import barbu as sheet

    def command(r, line):  # the rules apply the line, the view says what it did
        r, change = sheet.apply(r, line)
        return r, view.told(r, change)

    r = Rubber(first)
    for n in range(BARBU_DEALS):
        contract, result, doubles = barbu_deal(data, r, n)
        line = sheet.deal_line(contract, result, doubles)
        assert sheet.parse_deal(line) == (contract, result, doubles)
        if data.draw(st.integers(0, 5)) == 0:  # entered, then taken back and entered again
            r, told = command(r, line)
            r, told = command(r, "undo")
            assert told[0].endswith("(it read: %s)" % line)
        r, told = command(r, line)
        assert not [t for t in told if "CHECK FAILED" in t], told
        if len(r.deals) % 7 == 0:
            assert sum(r.round_totals(r.deals[-1][0])) == 0
            assert any(t.endswith("the round is done: 0") for t in told), told
        if n and data.draw(st.integers(0, 7)) == 0:  # an earlier deal's result fixed, same contract
            k = data.draw(st.integers(0, len(r.deals) - 1))
            _, contract_k, _, doubles_k, _ = r.deals[k]
            fixed = sheet.deal_line(contract_k, data.draw(barbu_result(contract_k)), doubles_k)
            r, told = command(r, "fix %d %s" % (k + 1, fixed))
            assert not [t for t in told if "CHECK FAILED" in t], told
    assert r.over()
    assert sum(r.totals()) == 0
    assert r.check() == []
    assert all(sum(r.round_totals(d)) == 0 for d in range(4))
    assert "CHECK FAILED" not in "\n".join(view.sheet_rows(r, ["A", "B", "C", "D"]))
