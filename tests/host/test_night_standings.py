# A night's standings (cribboard.night.standings) against a count made here
# from the games themselves, for random nights; the ACC's order (game
# points, then games won, then spread) with shared places; the scorecard's
# running totals; the schemes a club may set.
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribboard.errors import UsageError
from cribboard.event import sources
from cribboard.event.games import BoardGame
from cribboard.event.tables import Tables
from cribboard.night import results, scheme, standings
from cribboard.night.draw import draw
from cribboard.night.results import Result
from cribcore.game import skunk_class


def own_boards(names):
    """Tables each with a board of its own name all night."""
    return Tables.of(names, [(t, 1, t) for t in names])


def played_night(n, rounds, seed, the_scheme):
    """A drawn night with every game played at its table (random winners and scores) on the board there that
    round (boards change between rounds at random, a table may have none: its results by hand), and the
    standings counted here by hand: {player: (game points, wins, spread)}. Players are numbers whose names
    often repeat (namesakes: a board's game has names, track 1 the one who deals first where they are one)."""
    rng = random.Random(seed)
    d = draw(list(range(1, n + 1)), rounds, ["T%d" % i for i in range(n // 2)], seed)
    pool = ["P%d" % i for i in range(rng.randint(1, n))]
    names = {p: rng.choice(pool) for p in d.players}
    changes = [(t, r, None if rng.random() < 0.3 else "%s-r%d" % (t, r)) for t in d.tables for r in (1, 3)]
    tables = Tables.of(d.tables, changes)
    games, entries, mine, gid = [], [], {p: [0, 0, 0] for p in d.players}, 0
    for number, games_of_round in enumerate(d.rounds, 1):
        for g in games_of_round:
            if g.second is None:
                mine[g.first][0] += the_scheme.bye_points
                mine[g.first][1] += int(the_scheme.bye_wins)
                mine[g.first][2] += the_scheme.bye_spread
                continue
            gid += 1
            shared = names[g.first] == names[g.second]
            tracks = [g.first, g.second] if shared or rng.random() < 0.5 else [g.second, g.first]
            winner, loser_score = rng.randrange(2), rng.randrange(0, 121)
            scores = [121, 121]
            scores[1 - winner] = loser_score
            board = tables.board_at(g.table, number)
            if board is None:
                entries.append(results.Entry(number, (tracks[0], tracks[1]), (scores[0], scores[1])))
            else:
                on_tracks = tuple(names[p] for p in tracks)
                games.append(BoardGame(gid, board, on_tracks, tuple(scores), winner, 121, skunk_class(loser_score)))
            won, lost = tracks[winner], tracks[1 - winner]
            pts = (
                the_scheme.win
                if loser_score >= 91
                else the_scheme.skunk
                if loser_score >= 61
                else the_scheme.double_skunk
            )
            mine[won][0] += pts
            mine[won][1] += 1
            mine[won][2] += 121 - loser_score
            mine[lost][0] += the_scheme.loss
            mine[lost][2] -= 121 - loser_score
    return d, tables, games, entries, names, {p: tuple(v) for p, v in mine.items()}


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 20),
    st.data(),
    st.integers(0, 2**31 - 1),
    st.sampled_from([scheme.Scheme(), scheme.checked(win=1, skunk=2, double_skunk=4, bye_points=1, bye_spread=15)]),
)
def test_standings_equal_a_count_from_the_games(n, data, seed, the_scheme):
    rounds = data.draw(st.integers(1, min(9, n - 1 if n % 2 == 0 else n)))
    d, tables, games, entries, names, mine = played_night(n, rounds, seed, the_scheme)
    filed = results.file(d.rounds, games, entries, tables, names)
    assert filed.flags == ()
    assert results.round_in_play(d.rounds, filed) == rounds + 1
    rows = standings.table(d.players, filed.results.values(), the_scheme, str)
    assert {r.number: (r.game_points, r.wins, r.spread) for r in rows} == mine
    keys = [(-r.game_points, -r.wins, -r.spread) for r in rows]
    assert keys == sorted(keys)  # points, then wins, then spread
    for (key_before, before), (key_after, after) in itertools.pairwise(zip(keys, rows)):
        assert (after.rank == before.rank) == (key_after == key_before)
    for r in rows:  # the card's running totals end at the row's
        if r.lines:
            assert (r.lines[-1].total_points, r.lines[-1].total_spread) == (r.game_points, r.spread)
        assert r.card() == "%d/%d" % (r.game_points, r.wins)


def result(rnd, a, b, sa, sb):
    return Result(rnd, "T", (a, b), (sa, sb), a if sa > sb else b, skunk_class(min(sa, sb)), 121, sources.BOARD, None)


def test_games_won_break_a_tie_on_points_before_the_spread_and_equals_share_a_place():
    # Ann: a skunk win (3) and a loss; Bob: a win (2)... Cy and Di level on everything.
    played = [
        result(1, "Ann", "Eve", 121, 70),  # Ann 3 points, 1 win, +51
        result(2, "Bob", "Eve", 121, 120),  # Bob 2 points, 1 win, +1
        result(3, "Bob", "Fay", 121, 119),  # Bob 4 points, 2 wins, +3
        result(2, "Ann", "Fay", 121, 100),  # Ann 5 points, 2 wins, +72
        result(4, "Cy", "Gus", 121, 110),
        result(4, "Di", "Hal", 121, 110),
    ]
    rows = standings.table(["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"], played, scheme.Scheme(), str)
    assert [(r.rank, r.player, r.card()) for r in rows[:4]] == [
        (1, "Ann", "5/2"),
        (2, "Bob", "4/2"),
        (3, "Cy", "2/1"),
        (3, "Di", "2/1"),
    ]
    level = [
        Result(1, "T", ("A", "B"), (121, 119), "A", 0, 121, sources.BOARD, None),
        Result(1, "T", ("C", "D"), (121, 60), "C", skunk_class(60), 121, sources.BOARD, None),
        Result(2, "T", ("A", "D"), (0, 121), "D", 0, 121, sources.HAND, None),
    ]
    rows = standings.table(["A", "B", "C", "D"], level, scheme.checked(skunk=2, double_skunk=2), str)
    # A: 2 points, 1 win, +2 -121; C: 2, 1, +61 (a double skunk is 2 here); D: 2, 1, -61 +121; B: 0, 0, -2
    assert [(r.rank, r.player, r.game_points, r.wins, r.spread) for r in rows] == [
        (1, "C", 2, 1, 61),
        (2, "D", 2, 1, 60),
        (3, "A", 2, 1, -119),
        (4, "B", 0, 0, -2),
    ]


def test_the_top_quarter_is_paid_and_a_tie_at_the_line_is_paid_too():
    rows = [standings.Standing("P%d" % i, game_points=20 - i, rank=i + 1) for i in range(9)]
    assert standings.paid(rows) == 2
    rows[2].rank = rows[1].rank
    assert standings.paid(rows) == 3
    assert standings.paid([]) == 0
    assert standings.paid(rows[:3]) == 1


@pytest.mark.parametrize(
    "parts, said",
    [
        ({"win": 4}, "no more than a skunk"),
        ({"loss": 3}, "a loss no more than a win"),
        ({"win": 100}, "-99 to 99"),
        ({"bye_wins": 1}, "true or false"),
        ({"triple": 4}, "no part 'triple'"),
        ({"skunk": True}, "whole number"),
    ],
)
def test_a_club_scheme_refuses_what_no_club_means(parts, said):
    with pytest.raises(UsageError, match=said):
        scheme.checked(**parts)


def test_a_scheme_is_kept_as_json_and_read_back_the_same():
    s = scheme.checked(win=1, skunk=2, double_skunk=4, loss=0, bye_points=1, bye_wins=False, bye_spread=10)
    assert scheme.from_json(s.to_json()) == s
    assert scheme.from_json(None) == scheme.Scheme()
    assert [s.points(k) for k in range(4)] == [1, 2, 4, 4]


def test_a_stray_game_names_the_round_its_table_was_on_counting_the_results_entered_by_hand():
    """A game no seat fits is flagged with the pair due at its table then: in the first round there whose
    game is not in, by a board or by hand (a hand entry is a game played, whenever it was typed)."""
    d = draw([1, 2, 3, 4], 3, ["T1", "T2"], 7)
    names = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Di"}
    at_t1 = [next(g for g in games if g.table == "T1") for games in d.rounds]
    stray = BoardGame(1, "T1", ("Player 1", "Player 2"), (121, 90), 0, 121, skunk_class(90))
    by_hand = results.Entry(1, (at_t1[0].first, at_t1[0].second), (121, 100))
    (flag,) = results.file(d.rounds, [stray], [by_hand], own_boards(d.tables), names).flags
    assert (flag.reason, flag.round, flag.due) == (results.WRONG_PAIR, 2, (at_t1[1].first, at_t1[1].second))
    (flag,) = results.file(d.rounds, [stray], [], own_boards(d.tables), names).flags
    assert (flag.round, flag.due) == (1, (at_t1[0].first, at_t1[0].second))  # nothing in at T1 yet: round 1


def test_a_scorecard_that_disagrees_with_the_boards_game_is_flagged_and_counts():
    """Crosschecking: a card entered by hand for a seat whose board reported its game stands in for it; if
    the two disagree the board's game is flagged with the card's scores; a card that agrees, or the board's
    game taken by the director, leaves no flag."""
    d = draw([1, 2, 3, 4], 1, ["T1", "T2"], 7)
    names = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Di"}
    g = next(g for g in d.rounds[0] if g.table == "T1")
    on_board = BoardGame(9, "T1", (names[g.first], names[g.second]), (121, 100), 0, 121, 0)
    agrees = results.Entry(1, (g.first, g.second), (121, 100))
    other_way = results.Entry(1, (g.second, g.first), (121, 95))  # the card: the second won
    filed = results.file(d.rounds, [on_board], [agrees], own_boards(d.tables), names)
    assert filed.flags == ()
    filed = results.file(d.rounds, [on_board], [other_way], own_boards(d.tables), names)
    (flag,) = filed.flags
    assert (flag.reason, flag.game_id, flag.round, flag.table, flag.card) == (results.CROSSCHECK, 9, 1, "T1", (95, 121))
    counted = filed.results[(1, frozenset((g.first, g.second)))]
    assert (counted.source, counted.winner, counted.scores) == (sources.HAND, g.second, (95, 121))
    fixed = results.Entry(1, (g.first, g.second), (121, 100))  # a later card that agrees: the last counts
    assert results.file(d.rounds, [on_board], [other_way, fixed], own_boards(d.tables), names).flags == ()
    taken = results.Entry(1, (g.first, g.second), (121, 100), game_id=9)  # the board's game taken
    assert results.file(d.rounds, [on_board], [other_way, taken], own_boards(d.tables), names).flags == ()
