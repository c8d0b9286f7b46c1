# One game: entries, pegs, undo and redo, dealer, the immediate win, skunks.
from cribcore.game import (
    CORRECTION,
    CRIB,
    DEAL,
    DOUBLE_SKUNK,
    HAND,
    HEELS,
    PEGGING,
    PLAIN,
    SKUNK,
    TRIPLE_SKUNK,
    Game,
    skunk_class,
    skunk_line,
)

from check import finish, peg_to, raises, snapshot


def test_front_and_back_pegs():
    g = Game()
    assert (g.score(0), g.back(0)) == (0, 0)
    g.add(0, 5)
    g.add(1, 2)
    g.add(0, 7, HAND)
    assert (g.score(0), g.back(0)) == (12, 5)
    assert (g.score(1), g.back(1)) == (2, 0)
    assert g.scores() == [12, 2]


def test_entries_out_of_range_are_refused():
    g = Game()
    for bad in (0, -3, 30, 100):
        assert "1 to 29" in raises(ValueError, g.add, 0, bad)
    for bad in (19, 25, 26, 27):
        assert "no hand" in raises(ValueError, g.add, 1, bad, HAND)
    g.add(1, 19, PEGGING)  # 19 is a fine total for a run of pegging points
    raises(ValueError, g.add, 2, 3)
    raises(ValueError, g.add, 0, 3, "bonus")
    raises(ValueError, g.add, 0, 3, PEGGING, -1)
    assert g.scores() == [0, 19]


def test_heels_and_crib_belong_to_the_dealer():
    g = Game(dealer=1)
    assert "dealer" in raises(ValueError, g.add, 0, 2, HEELS)
    assert "2 points" in raises(ValueError, g.add, 1, 3, HEELS)
    assert "crib" in raises(ValueError, g.add, 0, 8, CRIB)
    g.add(1, 2, HEELS)
    g.add(1, 8, CRIB)
    g.add(0, 2, CORRECTION)
    assert g.scores() == [2, 10]


def test_undo_and_redo_any_number_of_steps():
    g = Game()
    seen = [snapshot(g)]
    for seat, pts in ((0, 4), (1, 6), (0, 12), (1, 3)):
        g.add(seat, pts)
        seen.append(snapshot(g))
    for back in range(4, 0, -1):
        assert g.undo()
        assert g.scores() == seen[back - 1][0]
        assert g.back(0) == seen[back - 1][1][0]
    assert not g.undo()
    for fwd in range(1, 5):
        assert g.redo()
        assert snapshot(g)[:4] == seen[fwd][:4]
    assert not g.redo()


def test_a_new_entry_after_undo_drops_the_redo_tail():
    g = Game()
    g.add(0, 4)
    g.add(0, 6)
    g.undo()
    g.add(1, 9)
    assert not g.redo()
    assert len(g.events) == 2
    assert g.scores() == [4, 9]


def test_the_game_ends_the_moment_the_target_is_reached():
    g = Game()
    peg_to(g, 1, 100)
    peg_to(g, 0, 118)
    g.add(0, 12, HAND)  # 130 pegs as 121: the game hole
    assert g.winner() == 0
    assert g.over()
    assert g.scores() == [121, 100]
    assert g.back(0) == 118
    assert "over" in raises(ValueError, g.add, 1, 20, HAND)
    assert g.undo()
    assert g.winner() is None
    g.add(1, 21, HAND)  # after undoing the win, the other side counts first
    assert g.winner() == 1


def test_the_counting_order_decides_a_close_game():
    g = Game(dealer=1)
    peg_to(g, 0, 110)
    peg_to(g, 1, 115)
    order = g.counting_order()
    assert order == [(0, HAND), (1, HAND), (1, CRIB)]
    g.add(0, 11, HAND)  # pone counts first and goes out
    assert g.winner() == 0
    raises(ValueError, g.add, 1, 10, HAND)


def test_a_jack_cut_can_win_the_game():
    g = Game(dealer=0)
    peg_to(g, 0, 119)
    g.add(0, 2, HEELS)
    assert g.winner() == 0


def test_dealer_rotation_and_counting_order_for_four():
    g = Game(players=4, dealer=3)
    assert g.counting_order() == [(0, HAND), (1, HAND), (2, HAND), (3, HAND), (3, CRIB)]
    g.pass_deal()
    assert g.dealer() == 0
    g.add(0, 12, CRIB)  # seat 0 deals: team 0 takes the crib
    g.add(2, 4, HAND)
    g.add(3, 6, HAND)
    assert g.scores() == [16, 6]
    assert g.events[0][2] == DEAL
    g.undo()
    g.undo()
    g.undo()
    g.undo()
    assert g.dealer() == 3


def test_three_players_have_three_tracks():
    g = Game(players=3, dealer=2)
    assert g.sides == 3
    assert g.counting_order()[0] == (0, HAND)
    g.add(2, 5)
    assert g.scores() == [0, 0, 5]
    for _ in range(3):
        g.pass_deal()
    assert g.dealer() == 2


def test_bad_settings_are_refused():
    raises(ValueError, Game, 5)
    raises(ValueError, Game, 2, 100)
    raises(ValueError, Game, 2, 121, 2)


def test_every_skunk_boundary():
    expect = {
        121: PLAIN,
        91: PLAIN,
        90: SKUNK,
        61: SKUNK,
        60: DOUBLE_SKUNK,
        31: DOUBLE_SKUNK,
        30: TRIPLE_SKUNK,
        0: TRIPLE_SKUNK,
    }
    for loser in expect:
        assert skunk_class(loser) == expect[loser], loser
    assert skunk_class(31, 61) == PLAIN
    assert skunk_class(30, 61) == SKUNK
    assert skunk_class(0, 61) == SKUNK
    assert skunk_line(95) == 0
    assert skunk_line(90) == 91
    assert skunk_line(45) == 61
    assert skunk_line(3) == 31
    assert skunk_line(30, 61) == 31
    assert skunk_line(31, 61) == 0


def test_game_skunk_by_the_best_placed_loser():
    g = Game(players=3)
    finish(g, [50, 95, 0], winner=2)
    assert g.skunk() == PLAIN
    g = Game(players=3)
    finish(g, [50, 30, 0], winner=2)
    assert g.skunk() == DOUBLE_SKUNK
    g = Game(players=2, target=61)
    finish(g, [0, 30], winner=0)
    assert g.skunk() == SKUNK
    assert g.scores() == [61, 30]


def test_race_chart_follows_the_events_in_force():
    g = Game()
    g.add(0, 5)
    g.pass_deal()
    g.add(1, 9)
    g.add(0, 3)
    g.undo()
    assert g.race() == [[5, 0], [5, 9]]


def test_load_replays_events_and_restores_the_cursor():
    g = Game(dealer=1)
    g.add(1, 2, HEELS, 5)
    g.add(0, 7)
    g.add(1, 4)
    g.undo()
    h = Game(dealer=1)
    h.load([list(e) for e in g.events], g.cursor)
    assert snapshot(h) == snapshot(g)
    assert h.events == g.events
    assert h.redo()
    assert h.scores() == [7, 6]
    raises(ValueError, Game(dealer=1).load, [[0, 2, HEELS, 0]], 1)  # heels by the wrong seat
    raises(ValueError, Game().load, [], 1)
