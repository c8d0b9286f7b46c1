# A finished two-player game as a board logs it, for the night's tests and
# its benchmark: names by track, the winner a track, the loser on a score.
import json

from cribboard import records
from cribcore.match import Match
from cribcore.record import game_record


def record(seq, names, winner, loser_score):
    """The checked record (records.check) of a game to 121 the winner's track won from loser_score."""
    m = Match()
    loser = 1 - winner
    while m.game.score(loser) < loser_score:
        m.game.add(loser, min(29, loser_score - m.game.score(loser)), "pegging", 10)
    while not m.game.over():
        m.game.add(winner, 29, "pegging", 20)
    rec = game_record(m, 0)
    rec.update({"match": seq, "game_no": 1, "boot": 1, "ticks": 40, "wall": None, "firmware": "t", "names": names})
    return records.check(json.dumps(rec))
