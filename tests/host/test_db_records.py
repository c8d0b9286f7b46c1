# A piquet partie from a board is stored, listed and charted like a game.
import json

from clirun import cli as run_cli

from cribboard import records, store
from cribboard.reports import stats
from cribcore.record import game_record
from cribrules.piquet import PiquetMatch


def test_a_piquet_record_syncs_like_a_cribbage_game(db_url):
    m = PiquetMatch(dealer=1)
    m.game.add(0, 60, "points", 10)
    m.game.add(1, 150, "points", 20)
    for _ in range(6):
        m.game.pass_deal(30)
    rec = game_record(m, 0)
    rec.update({"match": 4, "game_no": 1, "board": "b", "boot": 1, "ticks": 40, "wall": None, "firmware": "t"})
    conn = store.connect(db_url)
    assert store.games.add(conn, "b0ard", "t", [(1, records.check(json.dumps(rec)))], "now", {1: None}) == 1
    (row,) = stats.games(conn)
    assert (row["scheme"], row["scores"], row["game_points"]) == ("rubicon", [60, 150], 100 + 60 + 150)
    assert row["winner"] == "Track 2"
    assert row["kind"] == "piquet"
    assert stats.game(conn, row["id"])[0]["game"] == "piquet"


def test_every_command_that_reads_games_reads_them_from_either_engine(db_url):

    from cribcore.match import Match

    conn = store.connect(db_url)
    for seq, lost in enumerate((80, 50, 100), 1):  # the winner goes out at 121
        m = Match(first_to=2)
        while m.game.score(1) < lost:
            m.game.add(1, min(29, lost - m.game.score(1)), "points", 10)
        while not m.game.over():
            m.game.add(0, 29, "points", 20)
        rec = game_record(m, 0)
        rec.update(
            {"match": seq, "game_no": 1, "board": "b0ard", "boot": 1, "ticks": 40, "wall": None, "firmware": "t"}
        )
        game = records.check(json.dumps(rec))
        assert store.games.add(conn, "b0ard", "t", [(seq, game)], "now", {seq: 1.7e9 + seq}) == 1
    conn.close()

    def cli(*args):
        return run_cli(*args, "--db", db_url, check=True).stdout

    games = json.loads(cli("matches", "--json"))
    assert [g["scores"] for g in games] == [[121, 80], [121, 50], [121, 100]]
    assert games[0]["ended_at"] == "2023-11-14T22:13:21+00:00"  # 1.7e9 + 1, on both engines, to the second
    exported = cli("export").splitlines()
    assert "ended_at" in exported[0].split(",")
    assert "2023-11-14T22:13:21+00:00" in exported[1]  # the CSV says a date, as the JSON does
    assert "1700000001" not in "\n".join(exported)
    assert [g["skunk"] for g in games] == ["skunk", "double skunk", "win"]  # under 91, under 61
    stats_out = json.loads(cli("stats", "--json"))
    assert stats_out["boards"][0]["games"] == 3
    assert stats_out["boards"][0]["skunks"] == 2
    assert stats_out["players"][0]["wins"] == 3
    assert stats_out["players"][1]["skunks_taken"] == [1, 1, 0]
    exported = json.loads(cli("export", "--format", "json"))
    assert [e["record"]["scores"] for e in exported] == [[121, 80], [121, 50], [121, 100]]
    assert cli("export").splitlines()[1].split(",")[:3] == [str(games[0]["id"]), "b0ard", "1"]


def test_a_drawn_partie_is_listed_as_a_draw_and_a_row_that_cannot_be_read_costs_nothing_else(db_url):

    from cribcore.match import Match

    drawn = PiquetMatch(dealer=0)
    for deal in range(8):  # six deals and the two extra ones, tied all the way
        drawn.game.add(0, 3, "points", deal * 100 + 1)
        drawn.game.add(1, 3, "points", deal * 100 + 2)
        drawn.game.pass_deal(deal * 100 + 3)
    rubiconed = PiquetMatch(dealer=1)
    rubiconed.game.add(0, 60, "points", 10)
    rubiconed.game.add(1, 150, "points", 20)
    for _ in range(6):
        rubiconed.game.pass_deal(30)
    cribbage = Match(first_to=2)
    while not cribbage.game.over():
        cribbage.game.add(0, 29, "points", 20)
    conn = store.connect(db_url)
    for seq, m in enumerate((drawn, rubiconed, cribbage), 1):
        rec = game_record(m, 0)
        rec.update({"match": seq, "game_no": 1, "board": "b", "boot": 1, "ticks": 40, "wall": None, "firmware": "t"})
        assert store.games.add(conn, "b0ard", "t", [(seq, records.check(json.dumps(rec)))], "now", {seq: None}) == 1
    broken = conn.value("SELECT id FROM games WHERE seq = 3")
    conn.execute("UPDATE games SET scores = ? WHERE id = ?", ("[121, ", broken))
    conn.close()

    def cli(*args):
        done = run_cli(*args, "--db", db_url, check=True)
        assert "Traceback" not in done.stderr, done.stderr
        return done

    listed = cli("matches", "--json")
    games = json.loads(listed.stdout)
    assert [(g["seq"], g["result"], g["winner"], g["target"]) for g in games] == [
        (1, "draw", None, None),
        (2, "rubicon", "Track 2", None),
    ]
    assert games[1]["game_points"] == 100 + 60 + 150
    assert "skipped game %d (board b0ard, record 3)" % broken in listed.stderr
    table = cli("matches").stdout
    assert "draw" in table
    assert "rubicon" in table
    assert len(json.loads(cli("export", "--format", "json").stdout)) == 2
    assert len(cli("export").stdout.splitlines()) == 3
    cli("stats", "--json")
