# League standings and head-to-head, as a club reads them after an evening:
# ACC game points (2 a win, 3 a skunk win), the spread as the tie-break,
# date and board filters, piquet never counted; on both database engines.
import json
from datetime import datetime

from clirun import cli
from test_records import good

from cribboard import records, store
from cribcore.partie import PiquetMatch
from cribcore.record import game_record

# (winner, loser, loser's score, day of November 2026)
EVENING = [("Ann", "Bob", 80, 1), ("Bob", "Ann", 95, 2), ("Cy", "Ann", 100, 3), ("Bob", "Cy", 110, 4)]


def noon(day):
    return datetime(2026, 11, day, 12).timestamp()


def league(db_url, games, board="b0ard"):
    conn = store.connect(db_url)
    for seq, (won, lost, score, day) in enumerate(games, 1):
        game = records.check(json.dumps(good(seq, loser=score, names=[won, lost])))
        store.games.add(conn, board, "t", [(seq, game)], "2026-11-30T00:00:00+00:00", {seq: noon(day)})
    return conn


def ranked(done):
    assert done.returncode == 0, done.stderr
    return [(r["player"], r["game_points"], r["spread"]) for r in json.loads(done.stdout)]


def test_standings_rank_by_game_points_then_spread_and_piquet_does_not_count(db_url):
    conn = league(db_url, EVENING)
    m = PiquetMatch(dealer=0)  # a piquet partie between two of them: listed, never counted
    m.game.add(0, 130, "points", 10)
    for _ in range(6):
        m.game.pass_deal(30)
    rec = dict(game_record(m, 0), match=9, game_no=1, boot=1, ticks=9, wall=None, names=["Cy", "Bob"])
    store.games.add(conn, "b0ard", "t", [(9, records.check(json.dumps(rec)))], "now", {9: noon(5)})
    conn.close()
    # Ann: 3 (a skunk win), spread 41 - 26 - 21; Bob: 2 + 2, -41 + 26 + 11; Cy: 2, 21 - 11.
    assert ranked(cli("standings", "--db", db_url, "--json")) == [("Bob", 4, -4), ("Ann", 3, -6), ("Cy", 2, 10)]
    first = json.loads(cli("standings", "--db", db_url, "--json").stdout)[0]
    assert (first["rank"], first["games"], first["wins"], first["losses"], first["skunks_taken"]) == (1, 3, 2, 1, 1)
    conn = league(db_url, [("Cy", "Ann", 95, 5)], board="other")  # level on points with Bob: the spread decides
    conn.close()
    assert ranked(cli("standings", "--db", db_url, "--json")) == [("Cy", 4, 36), ("Bob", 4, -4), ("Ann", 3, -32)]
    assert ranked(cli("standings", "--db", db_url, "--json", "--since", "2026-11-03", "--until", "2026-11-04")) == [
        ("Bob", 2, 11),
        ("Cy", 2, 10),
        ("Ann", 0, -21),
    ]
    assert ranked(cli("standings", "--db", db_url, "--json", "--board", "oth")) == [("Cy", 2, 26), ("Ann", 0, -26)]
    widest = cli("standings", "--db", db_url, "--json", "--since", "0001-01-01", "--until", "9999-12-31")
    assert ranked(widest) == [("Cy", 4, 36), ("Bob", 4, -4), ("Ann", 3, -32)], widest.stderr  # dates no clock says
    table = cli("standings", "--db", db_url)
    assert table.returncode == 0
    assert table.stdout.index("Cy") < table.stdout.index("Bob") < table.stdout.index("Ann")


def test_head_to_head_takes_the_games_the_two_played_each_other(db_url):
    league(db_url, EVENING).close()
    result = json.loads(cli("head-to-head", "Ann", "Bob", "--db", db_url, "--json").stdout)
    assert [(p["player"], p["wins"], p["spread"]) for p in result["players"]] == [("Ann", 1, 15), ("Bob", 1, -15)]
    assert [(g["winner"], g["scores"], g["skunk"]) for g in result["games"]] == [
        ("Ann", [121, 80], 1),
        ("Bob", [95, 121], 0),
    ]
    none = json.loads(cli("head-to-head", "Ann", "Zed", "--db", db_url, "--json").stdout)
    assert none["games"] == []
    assert none["players"][1] == dict(none["players"][1], player="Zed", games=0)


def test_bad_dates_and_one_player_twice_are_usage_errors(tmp_path):
    url = str(tmp_path / "r.sqlite3")
    for args, why in (
        (["standings", "--since", "last week"], "is not a date"),
        (["head-to-head", "Ann", "Ann"], "two different players"),
    ):
        done = cli(*args, "--db", url)
        assert done.returncode == 2 and why in done.stderr, done.stderr
