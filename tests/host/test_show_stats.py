# Statistics by kind of points, from boards that counted the show: pegging
# and hand per deal, the crib per deal dealt, per game, the best hand; and
# boards that did not count it are said to have no split, not given one.
import json
import subprocess
import sys

from deadline import COMMAND_S
from test_records import good

from cribboard import records, store
from cribboard.reports import stats
from cribcore.match import Match
from cribcore.record import game_record


def counted_game():
    """A 61-point game entered with the show counted; Ann deals first."""
    m = Match(target=61, dealer=0)
    g = m.game
    script = [
        [(0, 2, "pegging"), (1, 3, "pegging"), (1, 8, "hand"), (0, 12, "hand"), (0, 4, "crib")],  # Ann deals
        [(1, 5, "pegging"), (0, 24, "hand"), (1, 6, "hand"), (1, 10, "crib")],  # Bob deals
        [(0, 3, "pegging"), (1, 2, "pegging"), (1, 16, "hand"), (0, 16, "hand")],  # Ann deals, and goes out
    ]
    for n, deal in enumerate(script):
        for seat, points, kind in deal:
            g.add(seat, points, kind, 10)
        if n < len(script) - 1:
            g.pass_deal(20)
    assert g.winner() == 0
    assert g.scores() == [61, 50]
    rec = dict(game_record(m, 0), match=1, game_no=1, boot=1, ticks=30, wall=None, names=["Ann", "Bob"])
    return json.loads(json.dumps(rec))


def test_points_by_kind_per_deal_and_per_game(db_url):
    conn = store.connect(db_url)
    store.games.add(conn, "b0ard", "t", [(1, records.check(json.dumps(counted_game())))], "now", {})
    uncounted = good(2, names=["Cy", "Ann"])  # a board that enters plain points
    uncounted["events"] = [[seat, points, "points", ticks] for seat, points, _, ticks in uncounted["events"]]
    store.games.add(conn, "b0ard", "t", [(2, records.check(json.dumps(uncounted)))], "now", {})
    by_name = {p["player"]: p for p in stats.player_stats(conn)}
    ann, bob = by_name["Ann"]["show"], by_name["Bob"]["show"]
    assert (ann["games"], ann["deals"], ann["dealt"], ann["best_hand"]) == (1, 3, 2, 24)
    assert (ann["pegging_per_deal"], ann["hand_per_deal"], ann["crib_per_deal_dealt"]) == (1.67, 17.33, 2.0)
    assert (ann["pegging_per_game"], ann["hand_per_game"], ann["crib_per_game"]) == (5, 52, 4)
    assert (bob["pegging_per_deal"], bob["hand_per_deal"], bob["crib_per_deal_dealt"], bob["best_hand"]) == (
        3.33,
        10.0,
        10.0,
        16,
    )
    assert by_name["Ann"]["games"] == 2
    assert by_name["Cy"]["show"] is None
    conn.close()
    table = subprocess.run(
        [sys.executable, "-m", "cribboard", "stats", "--db", db_url], capture_output=True, text=True, timeout=COMMAND_S
    )
    assert table.returncode == 0
    assert "17.33" in table.stdout
    assert stats.NOT_COUNTED in " ".join(table.stdout.split())


def test_points_per_entry_count_to_the_game_hole_as_a_game_worked_by_hand(db_url):
    # Ann: 29 29 29 29 and 9, five entries; the last reaches 121 with 5 of its 9 taps.
    # By hand: 121 / 5 = 24.2 points an entry (25.0 if the four taps past 121 counted).
    m = Match(target=121, dealer=1)
    g = m.game
    for seat, points in ((0, 29), (1, 10), (0, 29), (1, 10), (0, 29), (1, 10), (0, 29), (1, 10), (0, 9)):
        g.add(seat, points, "points", 10)
    assert g.winner() == 0
    assert g.scores()[0] == 121
    rec = json.loads(
        json.dumps(dict(game_record(m, 0), match=1, game_no=1, boot=1, ticks=30, wall=None, names=["Ann", "Bob"]))
    )
    conn = store.connect(db_url)
    store.games.add(conn, "b0ard", "t", [(1, records.check(json.dumps(rec)))], "now", {})
    by_name = {p["player"]: p for p in stats.player_stats(conn)}
    conn.close()
    assert by_name["Ann"]["points"] == {"points": 24.2}
    assert by_name["Bob"]["points"] == {"points": 10.0}
    table = subprocess.run(
        [sys.executable, "-m", "cribboard", "stats", "--db", db_url], capture_output=True, text=True, timeout=COMMAND_S
    )
    assert "avg per entry (to the game hole)" in table.stdout
    assert "points 24.2" in table.stdout
