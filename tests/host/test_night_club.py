# A whole club night, end to end (`make test-club`): 13 players, 9 rounds,
# 6 simulated Pico Ws on the club's WiFi reporting to a real `cribboard
# serve` on PostgreSQL. Each round, each board is seated by the server's
# signed answer (the names on its tracks), and its game is played on its
# buttons, confirmed, and sent by the board itself. At the end: no pair met
# twice, every player sat out once, and the standings equal a count made
# here from the games the database holds.
import json
import random
import time

import clubserver
import pytest
from clirun import cli
from clubtables import counted, paired_boards, stored_games, together
from deadline import COMMAND_S

from cribboard import store

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu", "Max"]
ROUNDS = 9
TABLES = 6


def wait_for(what, limit_s, why):
    deadline = time.monotonic() + limit_s
    while not (got := what()):
        assert time.monotonic() < deadline, why()
        time.sleep(0.1)
    return got


def enter(board, button, points):
    """points on one track, in entries of at most 29 (what one entry takes), each counted with OK."""
    while points:
        step = min(29, points)
        board.enter(button, step)
        points -= step


def play(board, pair, winner, loser_score):
    """The seated pair's game on the board's buttons: seated first (a press sends a live state, the club's
    answer names the pair; UNDO takes the press back), then the loser's points, the winner's to 121, OK."""

    def seated():
        board.press("P1")
        board.press("UNDO")
        return (board.sim.scoreboard() or {}).get("players") == list(pair)

    wait_for(seated, COMMAND_S, lambda: "board never seated %s: %s" % (pair, board.log_tail(600)))
    loser = 1 - winner
    enter(board, "P%d" % (loser + 1), loser_score)
    enter(board, "P%d" % (winner + 1), 121)
    board.press("OK")  # the win confirmed: logged, and sent by the board


@pytest.mark.club
def test_a_thirteen_player_night_is_run_by_six_wifi_boards(tmp_path, pg_cluster):
    db_url = pg_cluster.new_database()
    store.connect(db_url).close()
    proc, url = clubserver.start(db_url)
    boards = []
    try:
        by_ident = paired_boards(tmp_path, db_url, url, TABLES, boards)
        done = cli("night", "new", *PLAYERS, "--rounds", str(ROUNDS), "--seed", "45", "--db", db_url, "--json")
        assert done.returncode == 0, done.stderr
        rng = random.Random(45)
        for number in range(1, ROUNDS + 1):
            games = json.loads(cli("night", "round", str(number), "--db", db_url, "--json").stdout)
            playing = [g for g in games if g["second"]]
            assert len(playing) == TABLES
            assert sorted(g["board"] for g in playing) == sorted(by_ident)
            plans = [(g, rng.randrange(2), rng.randrange(40, 121)) for g in playing]  # (winner, loser's score)
            jobs = [
                lambda g=g, w=w, s=s: play(by_ident[g["board"]], (g["first"], g["second"]), w, s) for g, w, s in plans
            ]
            together(jobs, COMMAND_S * 4)
            wait_for(
                lambda number=number: all(
                    g["winner"] for g in json.loads(cli("night", "round", str(number), "--db", db_url, "--json").stdout)
                ),
                COMMAND_S,
                lambda number=number: (
                    "round %d's games not all in: %s" % (number, cli("night", "flags", "--db", db_url).stdout)
                ),
            )
        flags = json.loads(cli("night", "flags", "--db", db_url, "--json").stdout)
        assert flags == []
        ended = cli("night", "end", "--db", db_url, "--json")
        assert ended.returncode == 0, ended.stderr
        table = json.loads(ended.stdout)
    finally:
        for b in boards:
            b.stop()
        clubserver.stop(proc)
    # No pair twice, everyone's bye once, as the draw was kept.
    rounds = [json.loads(cli("night", "round", str(n), "--db", db_url, "--json").stdout) for n in range(1, ROUNDS + 1)]
    pairs = [frozenset((g["first"], g["second"])) for games in rounds for g in games if g["second"]]
    assert len(pairs) == len(set(pairs)) == ROUNDS * TABLES
    byes = sorted(g["first"] for games in rounds for g in games if g["second"] is None)
    assert byes == sorted(set(byes))
    assert len(byes) == ROUNDS
    # The standings counted here from the games stored: 2 a win, 3 a skunk (the loser short of 91), the
    # spread the loser's distance from 121; a bye 2 points and a win.
    mine = counted(stored_games(db_url), PLAYERS)
    for name in byes:
        mine[name][0] += 2
        mine[name][1] += 1
    assert {r["player"]: [r["game_points"], r["wins"], r["spread"]] for r in table} == mine
    keys = [(-r["game_points"], -r["wins"], -r["spread"]) for r in table]
    assert keys == sorted(keys)
