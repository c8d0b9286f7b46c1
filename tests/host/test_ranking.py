# The two orders players are ranked in (cribboard.ranking), each named and
# each used where it says: a night's, its season's and a tournament's is the
# ACC's (points, wins, spread; shared places), the league table's is points,
# spread, wins with a place each.
from hypothesis import given
from hypothesis import strategies as st

from cribboard.night import season
from cribboard.night import standings as night
from cribboard.ranking import LEAGUE, TOURNAMENT
from cribboard.reports import standings as league

# Ann has more wins, Bob more spread, on the same game points: the two orders part them the other way.
ANN = {"player": "Ann", "game_points": 6, "wins": 3, "spread": 10}
BOB = {"player": "Bob", "game_points": 6, "wins": 2, "spread": 40}
CY = {"player": "Cy", "game_points": 6, "wins": 3, "spread": 10}  # Ann's equal on every field


def places(order, rows):
    return [(place, row["player"]) for place, row in order.places(rows, dict.__getitem__, lambda r: r["player"])]


def test_the_tournament_ranks_wins_before_spread_and_equal_players_share_a_place():
    assert places(TOURNAMENT, [BOB, CY, ANN]) == [(1, "Ann"), (1, "Cy"), (3, "Bob")]


def test_the_league_ranks_spread_before_wins_and_gives_each_a_place_of_their_own():
    assert places(LEAGUE, [CY, ANN, BOB]) == [(1, "Bob"), (2, "Ann"), (3, "Cy")]


def test_each_order_says_itself_in_words():
    assert TOURNAMENT.said() == "game points, then games won, then spread"
    assert LEAGUE.said() == "game points, then spread, then games won"
    assert "share a place" in TOURNAMENT.note()
    assert "a place each" in LEAGUE.note()


rows = st.lists(
    st.fixed_dictionaries(
        {"game_points": st.integers(0, 9), "wins": st.integers(0, 4), "spread": st.integers(-60, 60)}
    ),
    max_size=12,
)


@given(rows)
def test_a_place_is_one_more_than_the_players_ranked_strictly_above(numbers):
    table = [dict(n, player="P%02d" % i) for i, n in enumerate(numbers)]
    for order in (TOURNAMENT, LEAGUE):
        ranked = order.places(table, dict.__getitem__, lambda r: r["player"])
        assert sorted(r["player"] for _place, r in ranked) == sorted(r["player"] for r in table)
        for place, row in ranked:
            mine = tuple(row[f] for f in order.by)
            above = sum(1 for r in table if tuple(r[f] for f in order.by) > mine)
            if order.shared:
                assert place == above + 1, (order.name, row)
            else:  # those equal on every field come in their names' order
                equal_before = sum(
                    1 for r in table if tuple(r[f] for f in order.by) == mine and r["player"] < row["player"]
                )
                assert place == above + equal_before + 1, (order.name, row)


def test_the_night_its_season_and_the_league_each_rank_in_their_own_named_order():
    rows = [
        night.Standing(p["player"], game_points=p["game_points"], wins=p["wins"], spread=p["spread"])
        for p in (BOB, CY, ANN)
    ]
    assert [(r.rank, r.player) for r in night.ranked(rows)] == places(TOURNAMENT, [BOB, CY, ANN])
    seasons = [
        season.SeasonRow(p["player"], game_points=p["game_points"], wins=p["wins"], spread=p["spread"])
        for p in (BOB, CY, ANN)
    ]
    assert [(r.rank, r.player) for r in night.ranked(seasons)] == places(TOURNAMENT, [BOB, CY, ANN])
    games = [
        league.Played(1, "b", 121, [121, 111], 0, 0, 1.0, ["Ann", "Bob"]),  # Ann +10
        league.Played(2, "b", 121, [81, 121], 1, 0, 2.0, ["Ann", "Bob"]),  # Bob +40
    ]
    table = league.table(games)
    assert [(r["rank"], r["player"]) for r in table] == [(1, "Bob"), (2, "Ann")]  # equal points and wins: spread
