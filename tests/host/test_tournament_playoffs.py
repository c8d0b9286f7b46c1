# The playoffs as cribboard.tournament.playoffs files them, on their own: a
# board's games counted to the match's winner and no further (a game after
# is flagged), games that fit no match flagged, namesakes told apart by
# track (the higher seed on track 1), a game by hand added or fixing one.
from cribboard.event.games import BoardGame
from cribboard.event.sources import HAND
from cribboard.tournament.playoffs import HandGame, play

NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Cy"}  # 3 and 4 share a name
TABLES = [("1", "board-a"), ("2", "board-b")]


def game(gid, board, names, scores):
    return BoardGame(gid, board, names, scores, 0 if scores[0] > scores[1] else 1, 121, 0)


def test_a_match_counts_to_its_winner_and_flags_what_comes_after():
    # Seeds 1..4 are players 1, 3, 4, 2: the chart of 4 puts seed 1 v 4 at table 1, 2 v 3 at table 2.
    seeds = [1, 3, 4, 2]
    games = [
        game(1, "board-a", ("Bob", "Ann"), (90, 121)),  # Ann (seed 1) wins, tracks the other way round
        game(2, "board-b", ("Cy", "Cy"), (121, 100)),  # namesakes: track 1 is seed 2 (player 3)
        game(3, "board-a", ("Ann", "Bob"), (121, 80)),  # Ann 2-0: the match is won
        game(4, "board-a", ("Ann", "Bob"), (100, 121)),  # after it: flagged
        game(5, "board-b", ("Ann", "Cy"), (121, 100)),  # no match of these names at this board: a stray
        game(6, "board-b", ("Cy", "Cy"), (121, 119)),  # seed 2 again: 2-0
    ]
    po = play(seeds, 3, 3, TABLES, NAMES, games, [])
    top, bottom = po.round(1)
    assert (top.players, top.table, top.wins, top.winner, top.extra) == ((1, 2), "1", (2, 0), 1, [4])
    assert (bottom.players, bottom.table, bottom.wins, bottom.winner) == ((3, 4), "2", (2, 0), 2)
    assert po.strays == (5,)
    (final,) = po.round(2)
    assert (final.players, final.table, final.board) == ((1, 3), "1", "board-a")  # the final at table 1
    assert po.round_in_play() == 2
    assert po.places() == {2: 3, 4: 3}


def test_games_by_hand_come_in_order_with_the_boards():
    seeds = [1, 2]
    board = [game(1, "board-a", ("Ann", "Bob"), (121, 90)), game(2, "board-a", ("Ann", "Bob"), (100, 121))]
    added = HandGame(1, 0, 1, (60, 121))  # game 1 was played on no board: the board's are games 2 and 3
    (final,) = play(seeds, 5, 3, TABLES, NAMES, board, [added]).round(1)
    assert [(g.number, g.scores, g.source) for g in final.games] == [
        (1, (60, 121), HAND),
        (2, (121, 90), "board"),
        (3, (100, 121), "board"),
    ]
    assert (final.wins, final.winner) == ((1, 2), 2)
    fixed = HandGame(1, 0, 3, (121, 100), replaces=True)  # game 3 was Ann's: the board had it wrong
    po = play(seeds, 5, 3, TABLES, NAMES, board, [added, fixed])
    (final,) = po.round(1)
    assert (final.best_of, final.wins, final.winner) == (3, (2, 1), 1)  # the final: its own length, 3
    assert po.champion() == 1
    assert po.places() == {1: 1, 2: 2}


def test_a_round_is_seated_at_its_tables_once_the_round_before_is_in():
    """Eight seeds, four tables: a quarter-final decided early makes its semi-final's pair known, but the
    semi-final has no table (its board is told nothing) until every quarter-final is in; then the
    semi-finals take tables 1 and 2."""
    names = {n: "P%d" % n for n in range(1, 9)}
    tables = [(str(n), "board-%d" % n) for n in range(1, 5)]
    seeds = list(range(1, 9))
    quarter = play(seeds, 3, 3, tables, names, [], [HandGame(1, 0, 1, (121, 90)), HandGame(1, 0, 2, (121, 80))])
    first_quarter = quarter.round(1)[0]
    assert (first_quarter.players, first_quarter.table, first_quarter.winner) == ((1, 8), "1", 1)
    semi = quarter.round(2)[0]
    assert (semi.players, semi.table, semi.board) == ((1, None), None, None)  # the other quarter-final goes on
    decided = [HandGame(1, slot, k, (121, 90)) for slot in range(4) for k in (1, 2)]
    semis = play(seeds, 3, 3, tables, names, [], decided).round(2)
    assert [(p.players, p.table, p.board) for p in semis] == [((1, 4), "1", "board-1"), ((2, 3), "2", "board-2")]
