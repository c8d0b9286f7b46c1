# A live state the club's server takes is drawn later, when a page asks
# (issue 56): so whatever passes the check it is taken with
# (web.boardstate.checked, the board's own restore) must draw. Real boards'
# states, then the same with any field changed to any JSON (hypothesis):
# each is refused by the check, or it draws, LED for LED as many as its
# layout has.
import copy
import json
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribboard.web.boardstate import checked, drawn
from cribcore.layout import Layout

from rig import Table

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@cache
def boards_states() -> tuple[dict, ...]:
    """States real boards sent: a 2-track game under way (an undo in it), a 3-track one, and a match's second game."""
    two = Table()
    for side, points in ((0, 7), (1, 12), (0, 3)):
        two.enter(side, points)
    two.tap("UNDO")
    three = Table(tracks=3)
    three.enter(2, 5)
    second = Table()  # a game won (a triple skunk: closed), the next one begun
    for points in (29, 29, 29, 29, 5):
        second.enter(0, points)
    second.run(3000)
    second.tap("OK")
    second.run(1000)
    second.enter(1, 4)
    return tuple(json.loads(json.dumps(t.state())) for t in (two, three, second))


def changed(state: dict, path: list, value) -> dict:
    """The state with the value at path (keys or indices, the last one replaced or added) set to value."""
    out = copy.deepcopy(state)
    where = out
    for step in path[:-1]:
        where = where[step]
    where[path[-1]] = value
    return out


@st.composite
def a_changed_state(draw):
    state = draw(st.sampled_from(boards_states()))
    path, where = [], state
    while True:  # down into the state at random, then one value replaced there
        if isinstance(where, dict) and where:
            step = draw(st.sampled_from(sorted(where)))
        elif isinstance(where, list) and where:
            step = draw(st.integers(min_value=0, max_value=len(where) - 1))
        else:
            break
        path.append(step)
        if not draw(st.booleans()):
            break
        where = where[step]
    if not path:
        return state
    return changed(state, path, draw(json_values | st.integers(min_value=-3, max_value=130)))


def test_the_boards_own_states_pass_the_check_and_draw():
    assert boards_states()[2]["closed"] == [[0, 3, 3]]  # (the second game's: its first won by a triple skunk)
    for state in boards_states():
        checked(state)
        _view, layout, leds = drawn(state)
        assert len(leds) == Layout(layout).n
        assert any(rgb != (0, 0, 0) for rgb in leds)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a_changed_state())
def test_a_state_that_passes_the_check_draws(state):
    try:
        checked(state)
    except ValueError:
        return
    view, layout, leds = drawn(state)  # (anything it raises fails the test: the page would show nothing)
    assert len(leds) == Layout(layout).n
    assert len(view["scores"]) in (2, 3)
    assert all(type(n) is int for n in view["scores"])


def test_what_the_check_refuses():
    state = boards_states()[0]
    for path, value in (
        (["brightness"], 9),
        (["brightness"], "3"),
        (["v"], 0),
        (["events"], "no"),
        (["boot"], -1),
    ):
        with pytest.raises(ValueError):
            checked(changed(state, path, value))
