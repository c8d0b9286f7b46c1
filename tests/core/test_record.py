# Match records: JSON round trips, and tampered records refused.
import json

from cribcore.game import HAND, HEELS
from cribcore.match import FREE_TRIPLE, Match
from cribcore.record import VERSION, game_record, match_record
from cribrules.replay import load_game, load_match

from check import finish, raises


def sample_match():
    m = Match(scheme=FREE_TRIPLE, best_of=3, dealer=1)
    m.game.add(1, 2, HEELS, 120)
    m.game.add(0, 8, HAND, 4500)
    finish(m.game, [0, 70], winner=0)
    m.next_game()
    m.game.add(1, 5, ticks=99000)
    m.game.add(0, 3)
    m.game.undo()  # undone events are not part of the record
    return m


def test_round_trip_through_json():
    m = sample_match()
    rec = match_record(m)
    assert rec["v"] == VERSION
    text = json.dumps(rec)
    again = load_match(json.loads(text))
    assert match_record(again) == rec
    assert again.game.scores() == [0, 5]
    assert again.games[0].events[0] == (1, 2, HEELS, 120)
    assert rec["games"][0]["winner"] == 0
    assert rec["games"][0]["points"] == 2
    assert rec["result"] == {"winner": None, "wins": [1, 0], "points": [2, 0]}


def tampered(change):
    rec = json.loads(json.dumps(match_record(sample_match())))
    change(rec)
    return rec


def test_tampered_records_are_refused():
    def version(r):
        r["v"] = 99

    def winner(r):
        r["games"][0]["winner"] = 1

    def impossible(r):
        r["games"][1]["events"].append([0, 19, HAND, 0])

    def dealer(r):
        r["games"][1]["dealer"] = 0

    def missing(r):
        del r["scheme"]

    def after_win(r):
        r["games"][0]["events"].append([1, 5, "pegging", 0])

    def match_winner(r):
        r["result"]["winner"] = 0

    for change, words in (
        (version, "version"),
        (winner, "does not match"),
        (impossible, "no hand"),
        (dealer, "loser"),
        (missing, "scheme"),
        (after_win, "over"),
        (match_winner, "match winner"),
    ):
        msg = raises(ValueError, load_match, tampered(change))
        assert words in msg, (change, msg)


def test_one_game_record_replays_and_is_checked():
    m = sample_match()
    rec = json.loads(json.dumps(record_of_first_game(m)))
    g = load_game(rec)
    assert g.winner() == 0
    assert g.scores() == [121, 70]
    assert rec["match_result"] == {"winner": None, "wins": [1, 0], "points": [2, 0]}
    rec["events"].pop()  # without its last entry the stored win is false
    raises(ValueError, load_game, rec)


def record_of_first_game(m):
    return game_record(m, 0)


def test_a_board_that_forgot_old_games_cannot_write_a_match_record():
    m = sample_match()
    m.forget_closed()
    assert len(m.games) == 1
    assert m.result(0) == (0, 1, 2)
    assert "no longer" in raises(ValueError, match_record, m)
    raises(ValueError, m.held, 0)
    assert m.held(1) is m.game


def test_a_piquet_partie_record_replays_and_a_tampered_one_is_refused():
    from cribcore.partie import PiquetMatch

    m = PiquetMatch(dealer=1)
    m.game.add(0, 60, "points", 10)
    m.game.add(1, 150, "points", 20)
    for _ in range(6):
        m.game.pass_deal(30)
    rec = json.loads(json.dumps(game_record(m, 0)))
    g = load_game(rec)
    assert g.scores() == [60, 150]
    assert g.winner() == 1
    for field, value in (("scheme", "acc"), ("players", 3), ("target", 121)):
        bad = dict(rec)
        bad[field] = value
        assert "piquet record with " + field in raises(ValueError, load_game, bad)
    bad = dict(rec, points=999)
    assert "does not match" in raises(ValueError, load_game, bad)
    assert "cribbage or piquet" in raises(ValueError, load_game, dict(rec, game="whist"))
