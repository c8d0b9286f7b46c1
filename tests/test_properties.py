# Property tests (CPython only: hypothesis does not run on MicroPython).
from hypothesis import given, settings
from hypothesis import strategies as st

from cribcore.game import CORRECTION, HAND, PEGGING, Game
from cribcore.pegging import score_lay
from cribcore.show import IMPOSSIBLE, score

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
    assert 0 <= s.total <= 29 and s.total not in IMPOSSIBLE
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
    history = [g.snapshot()]
    for seat, points, kind in script:
        before = g.snapshot()
        try:
            if kind == "deal":
                g.pass_deal()
            else:
                g.add(seat % players, points, kind)
        except ValueError:
            assert g.snapshot() == before  # a refused entry changes nothing
            continue
        history.append(g.snapshot())
    steps = data.draw(st.integers(0, len(history) - 1))
    for _ in range(steps):
        assert g.undo()
    assert g.snapshot()[:5] == history[-1 - steps][:5]
    for _ in range(steps):
        assert g.redo()
    assert g.snapshot()[:5] == history[-1][:5]
