# The draw of a club night (cribboard.night.draw): for every player count
# from 2 to 40 and every round count the night can have, each round seats
# every player once, no two players meet twice, no one has two byes, the
# tables are used evenly, and the seed gives the same draw again.
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribboard.night.draw import DrawError, draw, most_rounds, tables_needed
from cribboard.night.redraw import redraw


def players(n):
    """A night's players: its numbers (cribboard.event.roster)."""
    return list(range(1, n + 1))


def tables(n):
    return ["T%d" % i for i in range(n)]


def check(d, n, rounds, t):
    met, byes, used = set(), Counter(), Counter()
    assert len(d.rounds) == rounds
    for games in d.rounds:
        seated = [g.first for g in games] + [g.second for g in games if g.second is not None]
        assert sorted(seated) == sorted(d.players)  # everyone once a round
        at = [g.table for g in games if g.table is not None]
        assert len(at) == len(set(at)) == n // 2  # one game a table
        for g in games:
            if g.second is None:
                assert g.table is None
                byes[g.first] += 1
            else:
                pair = frozenset((g.first, g.second))
                assert pair not in met, "%s meet twice" % sorted(pair)
                met.add(pair)
                used[g.table] += 1
    assert all(k == 1 for k in byes.values())
    assert sum(byes.values()) == (rounds if n % 2 else 0)
    counts = [used[x] for x in tables(t)]
    assert max(counts) - min(counts) <= 1  # every table within one game of any other


def test_every_count_of_players_and_rounds_draws_a_night_with_no_pair_twice():
    for n in range(2, 41):
        for rounds in range(1, most_rounds(n) + 1):
            t = tables_needed(n) + rounds % 3  # as many tables as games, or a few more
            check(draw(players(n), rounds, tables(t), seed=n * 100 + rounds), n, rounds, t)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 40), st.data(), st.integers(0, 2**32), st.integers(0, 5))
def test_any_seed_draws_a_night_that_keeps_the_rules(n, data, seed, spare):
    rounds = data.draw(st.integers(1, most_rounds(n)))
    t = tables_needed(n) + spare
    d = draw(players(n), rounds, tables(t), seed)
    check(d, n, rounds, t)
    assert draw(players(n), rounds, tables(t), seed) == d  # the seed the director prints draws it again


def test_the_seed_changes_the_draw():
    nights = {draw(players(13), 9, tables(6), seed).rounds for seed in range(20)}
    assert len(nights) == 20


def test_first_to_deal_is_shared_out_not_always_the_same_player():
    d = draw(players(10), 9, tables(5), seed=1)
    first = Counter(g.first for games in d.rounds for g in games if g.second is not None)
    assert max(first.values()) < 9  # no one dealt first in every game


@pytest.mark.parametrize(
    "names, rounds, t, said",
    [
        ([1], 1, 1, "at least two players"),
        ([1, 2, 1], 1, 1, "in the draw twice"),
        (players(6), 6, 3, "1 to 5 rounds"),
        (players(7), 0, 3, "1 to 7 rounds"),
        (players(8), 3, 3, "need 4 tables a round, and there are 3"),
    ],
)
def test_a_night_that_cannot_be_drawn_says_why(names, rounds, t, said):
    with pytest.raises(DrawError, match=said):
        draw(names, rounds, tables(t), seed=0)
    assert DrawError.exit_code == 2


def test_a_pair_list_of_an_even_night_is_a_whole_round_robin():
    d = draw(players(8), 7, tables(4), seed=3)
    met = {frozenset((g.first, g.second)) for games in d.rounds for g in games}
    assert met == {frozenset(p) for p in combinations(players(8), 2)}


# A room that changes mid-night (cribboard.night.redraw): the rounds begun stay, the rest are drawn again
# for who is there, with no pair meeting twice across the whole night and no second bye while someone
# present has had none.
@settings(max_examples=60, deadline=None)
@given(st.integers(3, 24), st.data(), st.integers(0, 2**31 - 1))
def test_a_room_drawn_again_after_arrivals_and_departures_meets_no_pair_twice(n, data, seed):
    rounds = data.draw(st.integers(2, min(9, most_rounds(n))))
    cut = data.draw(st.integers(1, rounds - 1))
    t = tables(n // 2 + 2)
    night = draw(players(n), rounds, t, seed)
    leaving = data.draw(st.lists(st.sampled_from(players(n)), unique=True, max_size=max(0, n - 3)))
    joining = [100 + i for i in range(data.draw(st.integers(0, 2)))]
    room = [p for p in players(n) if p not in leaving] + joining
    if len(room) < 2 or len(room) // 2 > len(t) or rounds - cut > most_rounds(len(room)):
        return
    try:
        rest = redraw(room, rounds - cut, t, seed, night.rounds[:cut])
    except DrawError as e:
        assert "could):" in str(e)  # a room that cannot be drawn is told how many rounds could be
        return
    met = set()
    for games in night.rounds[:cut] + rest:
        for g in games:
            if g.second is not None:
                pair = frozenset((g.first, g.second))
                assert pair not in met, "%s meet twice" % sorted(pair)
                met.add(pair)
    for games in rest:
        seated = [g.first for g in games] + [g.second for g in games if g.second is not None]
        assert sorted(seated) == sorted(room)  # everyone present once a round, no one gone
        assert len({g.table for g in games if g.table is not None}) == len(room) // 2


def test_a_late_arrival_is_drawn_in_for_every_count_of_a_nine_round_night():
    for n in range(2, 41):
        rounds = min(9, most_rounds(n))
        t = tables(n // 2 + 1)
        night = draw(players(n), rounds, t, n)
        for cut in range(1, rounds):
            rest = redraw(players(n) + [99], rounds - cut, t, n, night.rounds[:cut])
            assert all(any(99 in (g.first, g.second) for g in games) for games in rest)
            met = [frozenset((g.first, g.second)) for games in night.rounds[:cut] + rest for g in games if g.second]
            assert len(met) == len(set(met))


def test_a_room_that_cannot_be_drawn_again_says_how_many_rounds_could():
    night = draw(players(4), 3, tables(2), 1)  # a whole round robin of four...
    with pytest.raises(DrawError, match=r"no 2 rounds .* 4 players .*\(1 could\)"):
        redraw(players(4), 2, tables(2), 1, night.rounds[:1] + night.rounds[1:2])  # ...has one round left, not two
