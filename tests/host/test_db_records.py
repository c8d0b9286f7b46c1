# A piquet partie from a board is stored, listed and charted like a game.
import json

from cribboard import db, stats
from cribcore.piquet import PiquetMatch
from cribcore.record import game_record


def test_a_piquet_record_syncs_like_a_cribbage_game(tmp_path):
    m = PiquetMatch(dealer=1)
    m.game.add(0, 60, "points", 10)
    m.game.add(1, 150, "points", 20)
    for _ in range(6):
        m.game.pass_deal(30)
    rec = game_record(m, 0)
    rec.update({"match": 4, "game_no": 1, "board": "b", "boot": 1, "ticks": 40, "wall": None, "firmware": "t"})
    conn = db.connect(str(tmp_path / "r.sqlite3"))
    assert db.store(conn, "b0ard", "t", [(1, json.loads(json.dumps(rec)))], "now", {1: None}) == 1
    (row,) = stats.games(conn)
    assert (row["scheme"], row["scores"], row["game_points"]) == ("rubicon", [60, 150], 100 + 60 + 150)
    assert row["winner"] == "b0ard/track 2"
    assert stats.game(conn, row["id"])[0]["game"] == "piquet"
