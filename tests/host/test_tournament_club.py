# A whole tournament, end to end (`make test-club`): 24 entrants, a
# qualifying of 6 games (two each against many) on 12 simulated Pico Ws on
# the club's WiFi reporting to a real `cribboard serve` on PostgreSQL; the
# cut to 6, a bracket of 8 with 2 byes; best-of-3 matches on the boards at
# their tables. Every game is played on a board's buttons after the
# server's signed answer seats its pair (and, in the playoffs, the match's
# length), and is sent by the board itself. The seeds, the bracket, the
# champion and every place equal a count made here from the games.
import json
import random

import clubserver
import pytest
from clirun import cli
from clubtables import counted, paired_boards, stored_games, together
from deadline import COMMAND_S
from test_night_club import play, wait_for

from cribboard import store

ENTRANTS = ["%s %s" % (a, b) for a in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo") for b in ("Ames", "Bell", "Cole", "Dunn")]
GAMES = 6
TABLES = 12


def game(board, pair, rng):
    """A qualifying game to play: the winner and the loser's score drawn now, in the test's order."""
    winner, loser_score = rng.randrange(2), rng.choice([50, 80, 95, 100, 110, 119])
    return lambda: play(board, pair, winner, loser_score)


def match(board, pair, plan):
    """A playoff match to play, game by game: plan, each game's winning track and loser's score."""

    def run():
        for winner, loser_score in plan:
            play(board, pair, winner, loser_score)

    return run


def ask(db_url, *args):
    done = cli(*args, "--db", db_url, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.club
def test_a_24_entrant_tournament_is_run_by_twelve_wifi_boards(tmp_path, pg_cluster):
    db_url = pg_cluster.new_database()
    store.connect(db_url).close()
    proc, url = clubserver.start(db_url)
    boards = []
    rng = random.Random(58)
    try:
        by_ident = paired_boards(tmp_path, db_url, url, TABLES, boards)
        ask(
            db_url,
            "tournament",
            "new",
            *ENTRANTS,
            "--games",
            str(GAMES),
            "--best-of",
            "3",
            "--final",
            "3",
            "--seed",
            "58",
        )
        for number in range(1, GAMES + 1):
            games = [g for g in ask(db_url, "night", "round", str(number)) if g["second"]]
            assert sorted(g["board"] for g in games) == sorted(by_ident)  # every table has its board
            together([game(by_ident[g["board"]], (g["first"], g["second"]), rng) for g in games], COMMAND_S * 4)
            wait_for(
                lambda number=number: all(g["winner"] for g in ask(db_url, "night", "round", str(number))),
                COMMAND_S,
                lambda number=number: (
                    "round %d not all in: %s" % (number, cli("night", "flags", "--db", db_url).stdout)
                ),
            )
        assert ask(db_url, "night", "flags") == []
        # The qualifying counted here from the games stored: 2 a win, 3 a skunk, the spread.
        games = stored_games(db_url)
        mine = counted(games, ENTRANTS)
        met = {}
        for names, _scores, _winner in games:
            met[frozenset(names)] = met.get(frozenset(names), 0) + 1
        assert max(met.values()) == 2  # two games each against many: each pair met for exactly two
        standings = ask(db_url, "tournament", "standings")
        assert {r["player"]: [r["game_points"], r["wins"], r["spread"]] for r in standings} == mine
        order = sorted(ENTRANTS, key=lambda p: (-mine[p][0], -mine[p][1], -mine[p][2], p))
        line = mine[order[5]]
        sure = [p for p in order if mine[p] > line]
        level = [p for p in order if mine[p] == line]  # (in the standings' order: by name when equal)
        take = level[: 6 - len(sure)] if len(sure) + len(level) > 6 else []
        seeds = sure + take if take else order[:6]
        cut = cli("tournament", "cut", *[x for p in take for x in ("--take", p)], "--db", db_url)
        assert cut.returncode == 0, cut.stderr
        first_round = ask(db_url, "tournament", "bracket", "--round", "1")
        assert [r["seeds"] for r in first_round] == [[1, None], [4, 5], [3, 6], [2, None]]  # 8, 2 byes
        assert [r["players"][0] for r in first_round] == [seeds[0], seeds[3], seeds[2], seeds[1]]
        # The playoffs: each match on the board at its table, best of 3, the winner's games at random.
        won_by = {}
        for number in (1, 2, 3):
            matches = [m for m in ask(db_url, "tournament", "bracket", "--round", str(number)) if not m["bye"]]
            plans = {}
            for m in matches:
                wins, plan = [0, 0], []
                while max(wins) < 2:
                    w = rng.randrange(2)
                    wins[w] += 1
                    plan.append((w, rng.choice([70, 100, 115])))
                plans[m["match"]] = plan
                won_by[(number, m["match"])] = m["players"][0 if wins[0] == 2 else 1]
            together(
                [match(by_ident[m["board"]], tuple(m["players"]), plans[m["match"]]) for m in matches], COMMAND_S * 8
            )
            wait_for(
                lambda number=number: all(
                    m["winner"] for m in ask(db_url, "tournament", "bracket", "--round", str(number))
                ),
                COMMAND_S,
                lambda number=number: (
                    "playoff round %d not decided: %s" % (number, cli("tournament", "bracket", "--db", db_url).stdout)
                ),
            )
            shown = {m["match"]: m for m in ask(db_url, "tournament", "bracket", "--round", str(number))}
            for m in matches:
                assert shown[m["match"]]["winner"] == won_by[(number, m["match"])]
                assert shown[m["match"]]["best_of"] == 3
                assert [g["source"] for g in shown[m["match"]]["games"]] == ["board"] * len(plans[m["match"]])
        assert ask(db_url, "tournament", "flags") == []
        places = {r["player"]: r["place"] for r in ask(db_url, "tournament", "places")}
    finally:
        for b in boards:
            b.stop()
        clubserver.stop(proc)
    champion = won_by[(3, 1)]
    assert places[champion] == 1
    final_pair = {won_by[(2, 1)], won_by[(2, 2)]}
    assert places[(final_pair - {champion}).pop()] == 2
    semis = {seeds[0], won_by[(1, 2)], won_by[(1, 3)], seeds[1]}  # the byes met the first round's winners
    assert {p for p in semis if places[p] == 3} == semis - final_pair
    first_played = {seeds[2], seeds[3], seeds[4], seeds[5]}  # 4 v 5 and 3 v 6
    assert {p for p in first_played if places[p] == 5} == first_played - {won_by[(1, 2)], won_by[(1, 3)]}
    rest = [p for p in order if p not in seeds]
    assert [places[p] for p in rest] == sorted(places[p] for p in rest)
    assert min(places[p] for p in rest) == 7
