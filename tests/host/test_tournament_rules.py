# A tournament's rules on their own (cribboard.tournament): the cut to one
# entrant in four and the byes for every field from 8 to 1,024 entrants
# against the ACC's rule and its worked examples; the bracket chart's
# pairings; the qualifying draw keeping every pair within the format's
# limit for any field and seed; a bracket played out to its places.
import math
import random
from collections import Counter
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribboard.night.draw import DrawError
from cribboard.tournament import chart, cut, qualifying
from cribboard.tournament.bracket import Bracket


def test_the_cut_and_the_byes_follow_the_rule_for_every_field_from_8_to_1024():
    for entrants in range(8, 1025):
        q = cut.qualifiers(entrants)
        assert q * 4 >= entrants > (q - 1) * 4  # one in four, a fraction rounded up
        size = cut.bracket_size(q)
        assert size >= q > size // 2 or q == size == 2  # the next full bracket, never more
        assert size & (size - 1) == 0
        assert cut.byes(q) == size - q
        assert q - cut.byes(q) >= 0
        assert (q - cut.byes(q)) % 2 == 0  # those who play the first round pair off
        assert cut.byes(q) + (q - cut.byes(q)) // 2 == size // 2  # the second round is a full bracket


@pytest.mark.parametrize(
    "entrants, qualifiers, bracket, byes",
    [(108, 27, 32, 5), (132, 33, 64, 31), (60, 15, 16, 1), (121, 31, 32, 1), (124, 31, 32, 1)],
)
def test_the_acc_examples(entrants, qualifiers, bracket, byes):
    assert cut.qualifiers(entrants) == qualifiers
    assert cut.bracket_size(qualifiers) == bracket
    assert cut.byes(qualifiers) == byes


def rows(ranks):
    return [SimpleNamespace(rank=r) for r in ranks]


def test_players_equal_at_the_line_are_left_to_the_director():
    # 12 entrants: 3 qualify. Places 1, 2, 3, 3, 5...: the two equal third are both at the line.
    c = cut.cut(rows([1, 2, 3, 3, 5, 6, 7, 8, 9, 10, 11, 12]))
    assert (c.qualifiers, c.through, c.tied, c.open_places()) == (3, (0, 1), (2, 3), 1)
    assert c.out == tuple(range(4, 12))
    c = cut.cut(rows([1, 2, 3, 4, 4, 6, 7, 8, 9, 10, 11, 12]))
    assert (c.through, c.tied) == ((0, 1, 2), ())  # equal below the line: no one to decide
    c = cut.cut(rows([1, 1, 1, 1, 1, 1, 1, 1]), entrants=8)
    assert (c.through, c.tied, c.open_places()) == ((), tuple(range(8)), 2)


def test_a_player_who_withdrew_is_passed_over_and_the_places_go_to_those_still_in():
    # 12 entrants: 3 qualify. The leader and the third withdrew: the next two still in take their places.
    c = cut.cut(rows([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), entrants=12, withdrawn={0, 2})
    assert (c.qualifiers, c.through, c.tied) == (3, (1, 3, 4), ())
    assert 0 in c.out and 2 in c.out
    c = cut.cut(rows([1, 2, 3, 4, 4, 6, 7, 8, 9, 10, 11, 12]), entrants=12, withdrawn={2})  # the line moves down
    assert (c.through, c.tied, c.open_places()) == ((0, 1), (3, 4), 1)
    c = cut.cut(rows([1, 2, 3, 4, 5, 6, 7, 8]), entrants=8, withdrawn=set(range(7)))  # one left: a cut of one
    assert (c.qualifiers, c.through) == (1, (7,))


def test_the_chart_reads_as_the_accs_columns_and_its_top_seeds_meet_last():
    pairs = chart.first_round(64)
    at = {p: i for i, p in enumerate(pairs)}
    # the ACC's reading of its chart: 5-60 below 8-57, 3-62 below 4-61, 7-58 below 6-59
    assert at[(5, 60)] == at[(8, 57)] + 1
    assert at[(3, 62)] == at[(4, 61)] + 1
    assert at[(7, 58)] == at[(6, 59)] + 1
    for size in (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024):
        order = chart.order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(a + b == size + 1 for a, b in chart.first_round(size))
        # the top 2^k seeds are each in a section of their own of size / 2^k: they meet no sooner
        k = 1
        while 2**k <= size:
            sections = size // 2**k
            top = [order.index(s) // sections for s in range(1, 2**k + 1)]
            assert len(set(top)) == 2**k
            k += 1


def test_a_chart_is_a_full_bracket():
    for size in (0, 1, 3, 12):
        with pytest.raises(ValueError):
            chart.order(size)


@settings(max_examples=60, deadline=None)
@given(st.integers(8, 1024), st.integers(0, 2**31 - 1))
def test_a_bracket_played_out_gives_byes_to_the_top_seeds_and_every_place(entrants, seed):
    q = cut.qualifiers(entrants)
    b = Bracket(q)
    byes = [m.high for m in b.round(1, {}) if m.bye]
    assert sorted(byes) == list(range(1, cut.byes(q) + 1))
    rng = random.Random(seed)
    winners = {}
    for number in range(1, b.rounds + 1):
        assert b.ready(number, winners)
        matches = b.round(number, winners)
        if number > 1:
            assert not any(m.bye for m in matches)  # the second round on is a full bracket
        for m in matches:
            if not m.bye:
                winners[(number, m.slot)] = rng.choice((m.high, m.low))
        if number < b.rounds:
            assert b.ready(number + 1, winners)
    places = b.places(winners)
    assert sorted(places) == list(range(1, q + 1))  # every qualifier has a place
    count = Counter(places.values())
    assert count[1] == count[2] == 1
    for number in range(1, b.rounds):
        lost_here = b.matches_in(number) + 1
        expected = b.matches_in(number) - (cut.byes(q) if number == 1 else 0)
        assert count[lost_here] == expected


def test_a_later_round_waits_for_its_matches():
    b = Bracket(8)
    assert not b.ready(2, {})
    m = b.match(2, 0, {(1, 0): 8})
    assert (m.high, m.low) == (8, None)
    m = b.match(2, 0, {(1, 0): 8, (1, 1): 4})
    assert (m.high, m.low) == (4, 8)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(2, 140),
    st.sampled_from(sorted(qualifying.GAMES_A_PAIRING)),
    st.integers(0, 2**31 - 1),
    st.data(),
)
def test_no_pair_plays_over_the_limit_and_the_tables_are_used_evenly(entrants, fmt, seed, data):
    most = qualifying.most_games(entrants, fmt)
    per = qualifying.GAMES_A_PAIRING[fmt]
    games = data.draw(st.integers(1, min(most, 22) // per)) * per
    tables = ["T%d" % i for i in range(entrants // 2 + data.draw(st.integers(0, 2)))]
    players = list(range(1, entrants + 1))
    rounds = qualifying.draw(players, games, tables, seed, fmt)
    assert rounds == qualifying.draw(players, games, tables, seed, fmt)  # the seed draws it again
    assert len(rounds) == games
    for games_of in rounds:
        seated = sorted([g.first for g in games_of] + [g.second for g in games_of if g.second is not None])
        assert seated == players  # everyone once a round
    met = qualifying.meetings(rounds)
    assert max(met.values()) <= qualifying.PAIR_LIMIT
    if fmt == qualifying.TWO:
        for a, b in zip(rounds[::2], rounds[1::2]):  # a pairing's two games: one table, first deal swapped
            assert {(g.table, g.first, g.second) for g in a if g.second} == {
                (g.table, g.second, g.first) for g in b if g.second
            }
    elif games <= most // 2:
        assert max(met.values()) == 1  # a second meeting only once every pair has met
    used = Counter(g.table for games_of in rounds[::per] for g in games_of if g.table is not None)
    counts = [used[t] for t in tables]
    assert max(counts) - min(counts) <= 1
    if fmt == qualifying.ONE_ALTERNATING:
        firsts = Counter(g.first for games_of in rounds for g in games_of if g.second is not None)
        played = Counter(p for games_of in rounds for g in games_of if g.second for p in (g.first, g.second))
        assert all(abs(2 * firsts[p] - played[p]) <= 1 for p in players)  # dealt first half the time


def test_a_qualifying_that_cannot_be_drawn_says_why():
    with pytest.raises(DrawError, match="even count"):
        qualifying.draw(list(range(1, 25)), 13, ["T%d" % i for i in range(12)], 1, qualifying.TWO)
    with pytest.raises(DrawError, match="1 to 14 qualifying games"):
        qualifying.draw(list(range(1, 9)), 16, ["T%d" % i for i in range(4)], 1, qualifying.ONE_CUT)
    with pytest.raises(DrawError, match="1 to 14 qualifying games"):
        qualifying.draw(list(range(1, 9)), 16, ["T%d" % i for i in range(4)], 1, qualifying.TWO)
    with pytest.raises(DrawError, match="format"):
        qualifying.draw(list(range(1, 9)), 2, ["T%d" % i for i in range(4)], 1, "three")
    assert math.isclose(qualifying.most_games(512, qualifying.TWO), 511 * 2)
