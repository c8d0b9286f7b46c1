# Matches: the four schemes at every skunk boundary, lengths, who deals next.
from cribcore.game import DOUBLE_SKUNK, PLAIN, SKUNK, TRIPLE_SKUNK
from cribcore.match import ACC, FREE, FREE_TRIPLE, LONG, SCHEMES, WINS_MATCH, Match, game_points

from check import finish, raises

# Game points by scheme and the loser's final score, from the rules' table.
TABLE = {
    ACC: {91: 2, 90: 3, 61: 3, 60: 3, 31: 3, 30: 3},
    LONG: {91: 3, 90: 4, 61: 4, 60: 4, 31: 4, 30: 4},
    FREE: {91: 1, 90: 2, 61: 2, 60: 4, 31: 4, 30: 4},
    FREE_TRIPLE: {91: 1, 90: 2, 61: 2, 60: 4, 31: 4, 30: WINS_MATCH},
}


def test_every_skunk_boundary_in_every_scheme():
    for scheme in TABLE:
        for loser in TABLE[scheme]:
            m = Match(scheme=scheme, first_to=99)
            finish(m.game, [0, loser], winner=0)
            w, sk, pts = m.result(0)
            assert w == 0 and pts == TABLE[scheme][loser], (scheme, loser, pts)
            wins, points, outright = m.standings()
            assert wins == [1, 0]
            if pts == WINS_MATCH:
                assert outright == 0
                assert m.winner() == 0
                assert sk == TRIPLE_SKUNK
            else:
                assert points == [pts, 0]
                assert m.winner() is None


def test_scheme_table_shape():
    assert game_points(ACC, PLAIN) == 2
    assert game_points(FREE, DOUBLE_SKUNK) == 4
    assert game_points(LONG, SKUNK) == 4
    raises(ValueError, game_points, "club", PLAIN)
    raises(ValueError, game_points, ACC, 7)
    assert sorted(SCHEMES) == sorted([ACC, LONG, FREE, FREE_TRIPLE])


def test_best_of_three_ends_on_the_second_win_and_loser_deals():
    m = Match(best_of=3, dealer=0)
    finish(m.game, [0, 100], winner=0)
    assert m.next_dealer() == 1
    m.next_game()
    assert m.game.dealer() == 1
    finish(m.game, [80, 0], winner=1)
    assert m.winner() is None
    m.next_game()
    assert m.game.dealer() == 0
    finish(m.game, [0, 95], winner=0)
    assert m.winner() == 0
    assert m.over()
    assert m.standings()[:2] == ([2, 1], [4, 3])
    assert "over" in raises(ValueError, m.next_game)


def test_first_to_points_counts_skunks():
    m = Match(scheme=FREE, first_to=5)
    finish(m.game, [0, 40], winner=0)  # double skunk: 4
    m.next_game()
    finish(m.game, [100, 0], winner=1)
    m.next_game()
    assert m.winner() is None
    finish(m.game, [0, 100], winner=0)
    assert m.standings()[1] == [5, 1]
    assert m.winner() == 0


def test_triple_skunk_wins_a_long_match_outright():
    m = Match(scheme=FREE_TRIPLE, best_of=7)
    finish(m.game, [0, 20], winner=1)
    assert m.winner() == 1
    m = Match(scheme=FREE, best_of=7)
    finish(m.game, [0, 20], winner=1)
    assert m.winner() is None
    assert m.standings()[1] == [0, 4]


def test_next_game_needs_a_finished_game():
    m = Match(best_of=3)
    m.game.add(0, 10)
    assert "not over" in raises(ValueError, m.next_game)


def test_teams_and_three_player_matches():
    m = Match(players=4, target=61, scheme=ACC, best_of=1, dealer=2)
    finish(m.game, [10, 0], winner=1)
    assert m.result(0) == (1, SKUNK, 3)
    assert m.winner() == 1
    m = Match(players=3, best_of=3, dealer=0)
    finish(m.game, [100, 0, 50], winner=1)
    assert m.next_dealer() == 2  # the last-placed player deals
    m.next_game()
    assert m.game.dealer() == 2


def test_bad_match_settings():
    raises(ValueError, Match, 2, 121, "club")
    raises(ValueError, Match, 2, 121, ACC, 3, 5)
    raises(ValueError, Match, 2, 121, ACC, 0)
    raises(ValueError, Match, 2, 121, ACC, None, 100)
