# A club night from the director's commands, on both database engines: the
# draw at the club's boards, the boards' games filed under their rounds and
# tables (the wrong table, the wrong pair and a second game flagged, not
# counted), results entered and undone by hand, late arrivals and leavers
# drawn in, and the standings checked against a count made here from the
# stored games.
import csv
import io
import json

import pytest
from clirun import cli
from nightgames import record

from cribboard import store

BOARDS = ["b0ard-one", "b0ard-two", "b0ard-three"]


class Boards:
    """The club's boards, each with its next record number."""

    def __init__(self, db_url):
        self.db_url = db_url
        self.seq = dict.fromkeys(BOARDS, 0)

    def play(self, board, names, winner, loser_score):
        """A game a board reports: stored as a sync (or the club's server) stores it."""
        self.seq[board] += 1
        conn = store.connect(self.db_url)
        seq = self.seq[board]
        store.games.add(
            conn, board, "t", [(seq, record(seq, names, winner, loser_score))], "2026-11-27T20:00:00+00:00", {}
        )
        conn.close()


def at(*boards):
    """--table options: tables 1, 2, ... with these boards."""
    return [x for n, b in enumerate(boards, 1) for x in ("--table", "%d=%s" % (n, b))]


def ok(*args):
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    return done


def as_json(*args):
    return json.loads(ok(*args, "--json").stdout)


def refused(*args):
    done = cli(*args)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    return done.stderr


def test_a_night_files_the_boards_games_and_ranks_the_players(db_url):
    boards = Boards(db_url)
    for b in BOARDS:  # the boards have synced before: the database knows them
        boards.play(b, ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    first = as_json(
        "night",
        "new",
        "Ann",
        "Bob",
        "Cy",
        "Di",
        "Ed",
        "--rounds",
        "5",
        "--seed",
        "7",
        "--table",
        "1=b0ard-o",
        "--table",
        "2=b0ard-tw",
        *db,
    )
    assert {r["board"] for r in first if r["second"]} <= {"b0ard-one", "b0ard-two"}
    assert len([r for r in first if r["second"] is None]) == 1  # five players: one sits out
    assert json.loads(ok("night", "list", "--json", *db).stdout)[0]["players"] == 5
    # Round 1 as drawn, played at the boards (the winner the first-named); the bye is in by itself.
    games = [r for r in first if r["second"]]
    a, b = games[0]["first"], games[0]["second"]
    boards.play(games[0]["board"], [a, b], 0, 80)  # a skunk: 3 game points, spread 41
    c, d = games[1]["first"], games[1]["second"]
    boards.play(games[1]["board"], [d, c], 1, 100)  # tracks the other way round: c won by 21
    boards.play(games[1]["board"], [d, c], 0, 110)  # the pair again at that table: flagged, not counted
    boards.play(games[0]["board"], [c, d], 0, 110)  # the pair at the wrong table: flagged
    boards.play(games[0]["board"], ["Player 1", "Player 2"], 0, 110)  # names never sent: flagged
    flags = {f["game"]: f for f in as_json("night", "flags", *db)}
    assert sorted(f["reason"] for f in flags.values()) == ["twice", "wrong_pair", "wrong_table"]
    wrong_table = next(f for f in flags.values() if f["reason"] == "wrong_table")
    assert wrong_table["round"] == 1
    assert wrong_table["drawn_table"] == games[1]["table"]
    wrong_pair = next(f for f in flags.values() if f["reason"] == "wrong_pair")
    assert wrong_pair["round"] != 1
    assert wrong_pair["names"] == ["Player 1", "Player 2"]
    round1 = as_json("night", "round", "1", *db)
    assert all(r["winner"] for r in round1)  # every game in, the bye too
    assert as_json("night", "round", *db)[0]["round"] == 2  # the round in play moved on
    rows = {r["player"]: r for r in as_json("night", "standings", *db)}
    assert (rows[a]["game_points"], rows[a]["wins"], rows[a]["spread"]) == (3, 1, 41)
    assert (rows[b]["game_points"], rows[b]["spread"]) == (0, -41)
    assert (rows[c]["game_points"], rows[c]["spread"], rows[d]["spread"]) == (2, 21, -21)
    bye = next(r["first"] for r in first if r["second"] is None)
    assert (rows[bye]["card"], rows[bye]["byes"], rows[bye]["games"], rows[bye]["spread"]) == ("2/1", 1, 0, 0)
    assert next(r["player"] for r in as_json("night", "standings", *db)) == a


def test_a_night_at_tables_without_boards_and_a_board_changed_between_rounds(db_url):
    """Tables are numbers (or names) the draw seats players at; a board at a table reports its games, a table
    without one has its results entered by hand, and a board is put at a table, moved or taken away between
    rounds while what it reported stays counted."""
    boards = Boards(db_url)
    for b in BOARDS[:2]:  # known boards, none paired with a club
        boards.play(b, ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    begun = cli("night", "new", "Ann", "Bob", "Cy", "Di", "Ed", "--rounds", "3", "--seed", "2", "--json", *db)
    assert begun.returncode == 0, begun.stderr
    assert "no board at table 1, 2: its results are entered by hand" in begun.stderr
    assert [(t["table"], t["board"]) for t in as_json("night", "tables", *db)] == [("1", None), ("2", None)]
    ok("night", "table", "1", "b0ard-o", *db)  # a board brought before round 1 is played
    round1 = [g for g in as_json("night", "round", *db) if g["second"]]
    at1 = next(g for g in round1 if g["table"] == "1")
    at2 = next(g for g in round1 if g["table"] == "2")
    assert at1["board"] == BOARDS[0]
    assert at2["board"] is None
    boards.play(BOARDS[0], [at1["first"], at1["second"]], 0, 90)
    ok("night", "result", "1", at2["first"], "121", at2["second"], "100", *db)
    assert {g["table"]: g["source"] for g in as_json("night", "round", "1", *db) if g["second"]} == {
        "1": "board",
        "2": "hand",
    }
    # Round 2: board one dies and board two comes to table 2; round 1's game from board one stays counted.
    assert "can begin at round 2" in refused("night", "table", "1", "b0ard-tw", "--from", "1", *db)
    assert "name the board" in refused("night", "table", "1", *db)
    assert "has no table 'T9'" in refused("night", "table", "T9", "--none", *db)
    taken = ok("night", "table", "1", "--none", *db).stderr
    ok("night", "table", "2", "b0ard-tw", *db)
    round2 = [g for g in as_json("night", "round", *db) if g["second"]]
    assert {g["table"]: g["board"] for g in round2} == {"1": None, "2": BOARDS[1]}
    by_table = {g["table"]: g for g in round2}
    assert "board %s's game of round 2 at table 1 does not count" % BOARDS[0] in taken  # what to type instead
    assert "`cribboard night result 2 %s SCORE %s SCORE`" % (by_table["1"]["first"], by_table["1"]["second"]) in taken
    boards.play(BOARDS[1], [by_table["2"]["first"], by_table["2"]["second"]], 1, 70)
    boards.play(BOARDS[0], [by_table["1"]["first"], by_table["1"]["second"]], 0, 70)  # the dead one: flagged
    (flag,) = as_json("night", "flags", *db)
    assert flag["board"] == BOARDS[0]
    assert flag["reason"] == "wrong_table"
    assert flag["table"] is None
    ok("night", "result", "2", by_table["1"]["first"], "121", by_table["1"]["second"], "70", *db)
    # Round 3: board two moves to table 1, leaving table 2 to be entered by hand.
    ok("night", "table", "1", "b0ard-tw", *db)
    assert [(t["table"], t["board"], t["round"]) for t in as_json("night", "tables", *db)] == [
        ("1", BOARDS[1], 3),
        ("2", None, 3),
    ]
    sources = {(r["round"], r["table"]): r["source"] for n in (1, 2) for r in as_json("night", "round", str(n), *db)}
    assert sources == {(1, "1"): "board", (1, "2"): "hand", (1, None): "bye", (2, "1"): "hand", (2, "2"): "board"} | {
        k: v for k, v in sources.items() if k[1] is None
    }
    # The scorecards name the tables as the draw does, on screen, in JSON and in CSV.
    cards = as_json("night", "card", *db)
    tables = sorted({(c["player"], ln["round"], ln["table"]) for c in cards for ln in c["lines"]}, key=str)
    csv_rows = csv.DictReader(io.StringIO(ok("night", "export", "--cards", *db).stdout))
    assert sorted({(r["player"], int(r["round"]), r["table"] or None) for r in csv_rows}, key=str) == tables
    assert {t for _p, _r, t in tables} == {"1", "2", None}


def test_late_arrivals_past_the_nights_tables_get_a_table_more_without_a_board(db_url):
    db = ["--db", db_url]
    ok("night", "new", "A", "B", "C", "D", "--rounds", "3", "--table", "1", "--table", "Window", *db)
    joined = cli("night", "join", "E", "F", *db)
    assert joined.returncode == 0, joined.stderr
    assert "a table more for them: table 3, with no board" in joined.stderr
    assert [(t["table"], t["board"]) for t in as_json("night", "tables", *db)] == [
        ("1", None),
        ("Window", None),
        ("3", None),
    ]
    drawn = as_json("night", "round", "2", *db)  # (round 1 is seated: kept as it was)
    assert sorted(g["table"] for g in drawn) == ["1", "3", "Window"]  # the six of them, at three tables


def test_a_result_entered_by_hand_checks_stands_in_and_undoes_with_its_history(db_url):
    boards = Boards(db_url)
    boards.play(BOARDS[0], ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    first = as_json("night", "new", "Ann", "Bob", "--rounds", "1", *at(BOARDS[0]), "--seed", "1", *db)
    a, b = first[0]["first"], first[0]["second"]
    assert "Zed is not in night" in refused("night", "result", "1", a, "121", "Zed", "90", *db)
    assert "rounds 1 to 1, not 2" in refused("night", "result", "2", a, "121", b, "90", *db)
    assert "one score of 121" in refused("night", "result", "1", a, "120", b, "90", *db)
    assert "one score of 121" in refused("night", "result", "1", a, "121", b, "121", *db)
    ok("night", "result", "1", b, "121", a, "90", *db)  # the board died: the paper card
    assert as_json("night", "round", "1", *db)[0]["winner"] == b
    boards.play(BOARDS[0], [a, b], 0, 100)  # the board's game comes in later: the director's entry stands
    assert as_json("night", "round", "1", *db)[0]["winner"] == b
    assert {r["player"]: r["spread"] for r in as_json("night", "standings", *db)} == {b: 31, a: -31}
    ok("night", "undo", *db)
    assert as_json("night", "round", "1", *db)[0]["winner"] == a  # the board's game counts again
    history = as_json("night", "history", *db)
    assert len(history) == 1
    assert history[0]["undone_at"]
    assert history[0]["first_score"] == 121
    said = refused("night", "undo", *db)  # (once: a second undo would be another command's answer)
    assert "nothing" in said or "no result" in said
    ok("night", "end", *db)
    assert "has ended" in refused("night", "result", "1", a, "121", b, "90", *db)
    boards.play(BOARDS[0], [b, a], 0, 100)  # after the night: not its game, not flagged either
    assert as_json("night", "flags", *db) == []
    assert as_json("night", "round", "1", *db)[0]["winner"] == a


def test_a_flagged_game_is_counted_when_the_director_takes_it(db_url):
    boards = Boards(db_url)
    for b in BOARDS[:2]:
        boards.play(b, ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    first = as_json("night", "new", "Ann", "Bob", "Cy", "Di", "--rounds", "3", *at(BOARDS[0], BOARDS[1]), *db)
    g = first[0]
    boards.play(g["board"], ["Player 1", "Player 2"], 1, 70)  # the names were never sent to the board
    flag = as_json("night", "flags", *db)[0]
    assert flag["reason"] == "wrong_pair"
    assert flag["due"] == [g["first"], g["second"]]
    assert "never seats" in refused("night", "take", str(flag["game"]), *db)
    ok("night", "take", str(flag["game"]), g["first"], g["second"], *db)
    assert as_json("night", "flags", *db) == []
    mine = next(r for r in as_json("night", "round", "1", *db) if r["first"] == g["first"])
    assert mine["winner"] == g["second"]
    assert mine["scores"] == [70, 121]
    assert mine["source"] == "hand"


def test_late_arrivals_and_leavers_are_drawn_into_the_rounds_not_begun(db_url):
    boards = Boards(db_url)
    for b in BOARDS:
        boards.play(b, ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    names = ["Ann", "Bob", "Cy", "Di", "Ed"]
    first = as_json("night", "new", *names, "--rounds", "4", *at(*BOARDS), *db)
    for g in first:
        if g["second"]:
            boards.play(g["board"], [g["first"], g["second"]], 0, 100)
    ok("night", "join", "Flo", *db)
    assert "playing tonight already" in refused("night", "join", "Flo", *db)
    assert "Zed is not in night 1" in refused("night", "leave", "Zed", *db)
    ok("night", "leave", "Bob", *db)
    rounds = [as_json("night", "round", str(n), *db) for n in range(1, 5)]
    assert rounds[0] == as_json("night", "round", "1", *db)  # the round played stays as it was
    seen = set()
    for number, games in enumerate(rounds, 1):
        present = [p for g in games for p in (g["first"], g["second"]) if p]
        assert len(present) == len(set(present))  # no one twice in a round
        if number > 1:
            assert "Bob" not in present
            assert "Flo" in present
        for g in games:
            if g["second"]:
                pair = frozenset((g["first"], g["second"]))
                assert pair not in seen
                seen.add(pair)
    rows = {r["player"]: r for r in as_json("night", "standings", *db)}
    assert set(rows) == {*names, "Flo"}
    assert rows["Bob"]["games"] + rows["Bob"]["byes"] == 1


def test_the_draw_and_its_scheme_refuse_what_cannot_be(db_url, tmp_path):
    boards = Boards(db_url)
    boards.play(BOARDS[0], ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    assert "need 2 tables" in refused("night", "new", "A", "B", "C", "D", "--rounds", "3", *at(BOARDS[0]), *db)
    assert "1 to 3 rounds" in refused("night", "new", "A", "B", "C", "D", "--rounds", "9", *at(BOARDS[0]), *db)
    assert "names 0 of the boards" in refused("night", "new", "A", "B", "--rounds", "1", "--table", "1=zz", *db)
    twice = refused("night", "new", "A", "B", "--rounds", "1", *at(BOARDS[0], BOARDS[0]), *db)
    assert "a board can be at one table only: b0ard-one" in twice
    assert "a table is named twice" in refused("night", "new", "A", "B", "--table", "1", "--table", "1", *db)
    assert "--table" in refused("night", "new", "A", "B", "--table", "=b0ard", *db)
    assert "no more than a skunk" in refused("night", "scheme", "--win", "4", *db)
    assert "no night yet" in refused("night", "standings", *db)
    ok("night", "scheme", "--skunk", "4", "--double-skunk", "4", "--bye-points", "1", *db)
    assert as_json("night", "scheme", *db)["skunk"] == 4
    n = as_json("night", "new", "A", "B", "C", "--rounds", "3", *at(BOARDS[0]), "--seed", "5", *db)
    bye = next(g["first"] for g in n if g["second"] is None)
    assert next(r for r in as_json("night", "standings", *db) if r["player"] == bye)["game_points"] == 1


def test_a_night_given_no_count_plays_what_fits_and_a_result_says_what_is_wrong_with_it(db_url, tmp_path):
    """The README's `night new Ann Bob Cy Di Ed`: five players play five rounds (nine cannot be drawn with no
    one met twice), said as it begins; a plainly negative score, an unknown player and a name's case are each
    said for what they are; a new club sees the scheme it would have without a database made for it."""
    boards = Boards(db_url)
    for b in BOARDS:
        boards.play(b, ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    begun = cli("night", "new", "Ann", "Bob", "Cy", "Di", "Ed", *at(*BOARDS), *db)
    assert begun.returncode == 0
    assert "5 players: 5 rounds, the most with no one met twice" in begun.stderr
    assert "5 rounds" in begun.stderr
    assert as_json("night", "round", "5", *db)
    assert "rounds 1 to 5, not 6" in refused("night", "round", "6", *db)
    g = next(g for g in as_json("night", "round", "1", *db) if g["second"])
    a, b = g["first"], g["second"]
    said = refused("night", "result", "1", a, "121", b, "-5", *db)
    assert "from 0 to 120, not 121 and -5" in said
    assert "No such option" not in said
    assert "Zed is not in night 1 (its players: Ann, Bob, Cy, Di, Ed)" in refused(
        "night", "result", "1", a, "121", "Zed", "100", *db
    )
    assert "%s is not in night 1: %s is" % (b.lower(), b) in refused(
        "night", "result", "1", a, "121", b.lower(), "9", *db
    )
    ok("night", "result", "1", a, "121", b, "90", *db)
    ok("night", "result", "1", b, "121", a, "100", *db)  # an older result fixed: entered again, it replaces it
    assert as_json("night", "round", "1", *db)[0]["winner"] == b
    ok("night", "undo", *db)  # the one before stands again
    assert as_json("night", "round", "1", *db)[0]["winner"] == a
    assert len(as_json("night", "history", *db)) == 2
    german = cli("--lang", "de", "night", "round", "1", *db).stdout
    assert "von Hand" in german and " hand " not in german and " bye " not in german, german  # (JSON keeps its words)
    new_club = tmp_path / "new-club.sqlite3"
    shown = ok("night", "scheme", "--db", str(new_club)).stdout
    assert "game points for a skunk: 3" in shown
    assert "a bye counts as a game won: yes" in shown
    assert not new_club.exists()  # shown, not made
    assert json.loads(ok("night", "scheme", "--db", str(new_club), "--json").stdout)["skunk"] == 3
    assert "no more than a skunk" in refused("night", "scheme", "--win", "4", "--db", str(new_club))
    assert not new_club.exists()  # nothing made for a scheme refused
    ok("night", "scheme", "--skunk", "4", "--double-skunk", "4", "--db", str(new_club))  # setting it makes it
    assert "game points for a skunk: 4" in ok("night", "scheme", "--db", str(new_club)).stdout
    de = cli("--lang", "de", "night", "scheme", "--db", str(new_club)).stdout
    assert "skunk:" not in de and "bye_wins" not in de, de  # the parts in the reader's language


@pytest.mark.parametrize("seed", [3, 11])
def test_the_same_seed_draws_the_same_night_at_the_clubs_paired_boards(db_url, seed):
    conn = store.connect(db_url)
    for n, b in enumerate(BOARDS):  # paired with the club (`cribboard pair`): its tables, in pairing order
        store.club.pair(conn, b, b"k" * 32, "2026-11-27T19:0%d:00+00:00" % n)
    conn.close()
    args = ["night", "new", "A", "B", "C", "D", "E", "F", "--rounds", "5", "--seed", str(seed), "--db", db_url]
    once = as_json(*args)
    twice = as_json(*args)
    assert [(g["first"], g["second"], g["board"]) for g in once] == [
        (g["first"], g["second"], g["board"]) for g in twice
    ]
    assert {g["board"]: g["table"] for g in once} == {b: str(n) for n, b in enumerate(BOARDS, 1)}


def test_the_night_ends_on_paper_pdfs_csv_and_json_that_agree_with_its_standings(db_url, tmp_path):
    import csv
    import io

    from pypdf import PdfReader

    boards = Boards(db_url)
    for b in BOARDS[:2]:
        boards.play(b, ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    names = ["Ann", "Bob", "Cy", "Di", "Zoë O'Hara"]  # a name no file may carry as it is
    as_json(
        "night",
        "new",
        *names,
        "--rounds",
        "5",
        *at(BOARDS[0], BOARDS[1]),
        "--seed",
        "9",
        "--name",
        "Thursday",
        *db,
    )
    for number in range(1, 6):
        for k, g in enumerate(as_json("night", "round", str(number), *db)):
            if g["second"]:
                boards.play(g["board"], [g["first"], g["second"]], k % 2, 60 + 10 * number + k)
    ok("night", "end", *db)
    table = as_json("night", "standings", *db)
    rows = list(csv.DictReader(io.StringIO(ok("night", "export", *db).stdout)))
    assert [(r["player"], int(r["game_points"]), int(r["spread"])) for r in rows] == [
        (r["player"], r["game_points"], r["spread"]) for r in table
    ]
    lines = list(csv.DictReader(io.StringIO(ok("night", "export", "--cards", *db).stdout)))
    assert len(lines) == 5 * 5  # a line a player and round, the byes too
    for r in table:
        mine = [ln for ln in lines if ln["player"] == r["player"]]
        assert int(mine[-1]["total_points"]) == r["game_points"]
        assert int(mine[-1]["total_spread"]) == r["spread"]
    ok("night", "export", "--format", "json", "-o", str(tmp_path / "night.json"), *db)
    whole = json.loads((tmp_path / "night.json").read_text())
    assert whole["name"] == "Thursday"
    assert whole["seed"] == 9
    assert whole["ended_at"]
    assert [r["card"] for r in whole["standings"]] == [r["card"] for r in table]
    printed = ok("night", "print", str(tmp_path / "paper"), *db).stderr  # (it takes seconds: said as it begins)
    assert printed.startswith("printing the standings and 5 scorecards into %s..." % (tmp_path / "paper"))
    pdfs = sorted(p.name for p in (tmp_path / "paper").iterdir())
    assert pdfs[-2:] == ["codes.pdf", "standings.pdf"]
    assert len(pdfs) == 7
    assert "card-00" in pdfs[0]
    assert all(set(p) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.ë") for p in pdfs)
    text = PdfReader(tmp_path / "paper" / "standings.pdf").pages[0].extract_text()
    assert "Thursday" in text
    assert "final" in text
    for r in table:
        assert r["player"] in text
        assert r["card"] in text
    first = next(p for p in pdfs if p.startswith("card-001"))
    card = PdfReader(tmp_path / "paper" / first).pages[0].extract_text()
    assert table[0]["player"] in card
    assert table[0]["card"] in card
    assert "(bye)" in card  # five players, five rounds: each sits out once


def test_nights_add_up_to_a_season_table(db_url):
    boards = Boards(db_url)
    for b in BOARDS[:2]:
        boards.play(b, ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    finals = []
    for seed, names in ((1, ["Ann", "Bob", "Cy", "Di"]), (2, ["Ann", "Bob", "Ed", "Flo"]), (3, ["Ann", "Cy"])):
        as_json(
            "night",
            "new",
            *names,
            "--rounds",
            "1",
            *at(BOARDS[0], BOARDS[1]),
            "--seed",
            str(seed),
            *db,
        )
        for k, g in enumerate(as_json("night", "round", "1", *db)):
            boards.play(g["board"], [g["first"], g["second"]], k % 2, 50 + 30 * k + seed)
        if seed < 3:  # the last night is not over: not in the season yet
            finals.append(as_json("night", "end", *db))
    season = {r["player"]: r for r in as_json("night", "season", *db)}
    mine = {}
    for final in finals:
        line = max(1, len(final) // 4)
        for place, r in enumerate(final, 1):
            m = mine.setdefault(r["player"], [0, 0, 0, 0, 0, 0])
            for k, v in enumerate(
                (1, int(r["rank"] == 1), int(place <= line), r["game_points"], r["wins"], r["spread"])
            ):
                m[k] += v
    assert {
        p: [r[k] for k in ("nights", "firsts", "paid", "game_points", "wins", "spread")] for p, r in season.items()
    } == mine
    assert season["Ann"]["nights"] == 2
    assert "Flo" in season
    assert [n["card"] for n in season["Ann"]["by_night"]] == [
        next(r["card"] for r in final if r["player"] == "Ann") for final in finals
    ]
    keys = [(-r["game_points"], -r["wins"], -r["spread"]) for r in as_json("night", "season", *db)]
    assert keys == sorted(keys)
    assert as_json("night", "season", "--since", "2999-01-01", *db) == []


def test_a_board_on_usb_is_given_its_pair_and_its_game_files_under_the_round(tmp_path, db_url):
    from simboard import Board

    from cribboard.sim.simulator import board_ident

    board = Board(tmp_path / "flash")
    db = ["--db", db_url]
    try:
        ok("night", "new", "Cy", "Di", "--rounds", "1", "--table", "1", *db)  # a night without this board
        said = refused("night", "send", "--port", board.port, *db)
        assert "is at no table of night 1 in round 1: put it at one (`cribboard night table TABLE " in said, said
        assert "synced once first: `cribboard sync`" in said, said
        ok("night", "end", "--early", *db)
        ok("sync", "--port", board.port, *db)  # the database knows the board from its first sync
        ident = board_ident(tmp_path / "flash")
        (g,) = as_json("night", "new", "Ann", "Bob", "--rounds", "1", *at(ident[:8]), *db)
        assert "no game in round 2" in refused("night", "send", "--port", board.port, "--round", "2", *db)
        told = ok("night", "send", "--port", board.port, *db)
        assert "%s (deals first) against %s" % (g["first"], g["second"]) in told.stderr
        for _ in range(4):  # the first track (who deals first) to 121 on the buttons
            board.enter("P1", 29)
        board.enter("P1", 5)
        board.press("OK")  # the win confirmed: logged
        ok("sync", "--port", board.port, *db)
    finally:
        board.stop()
    (filed,) = as_json("night", "round", "1", *db)
    assert filed["winner"] == g["first"]
    assert filed["scores"] == [121, 0]
    assert filed["source"] == "board"
    assert as_json("night", "flags", *db) == []


def test_a_late_arrival_can_leave_the_round_being_played_as_it_is(db_url):
    boards = Boards(db_url)
    for b in BOARDS:
        boards.play(b, ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    first = as_json("night", "new", "A", "B", "C", "D", "--rounds", "3", *at(*BOARDS), *db)
    assert "rounds 1 to 3 can be drawn again" in refused("night", "join", "E", "--from", "4", *db)
    ok("night", "join", "E", "--from", "2", *db)  # round 1 is being played: kept, though no result is in
    assert as_json("night", "round", "1", *db) == first
    assert any("E" in (g["first"], g["second"]) for g in as_json("night", "round", "2", *db))
    boards.play(first[0]["board"], [first[0]["first"], first[0]["second"]], 0, 100)
    assert "rounds 2 to 3 can be drawn again" in refused("night", "leave", "A", "--from", "1", *db)


def test_a_night_ended_early_counts_no_bye_of_a_round_never_played(db_url):
    boards = Boards(db_url)
    boards.play(BOARDS[0], ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    first = as_json("night", "new", "A", "B", "C", "--rounds", "3", *at(BOARDS[0]), "--seed", "3", *db)
    (g,) = [g for g in first if g["second"]]
    boards.play(g["board"], [g["first"], g["second"]], 0, 100)
    second_bye = next(x["first"] for x in as_json("night", "round", "2", *db) if x["second"] is None)
    assert next(r for r in as_json("night", "standings", *db) if r["player"] == second_bye)["byes"] == 1  # in play
    table = {r["player"]: r for r in as_json("night", "end", "--early", *db)}  # ended with round 2 unplayed
    assert sum(r["byes"] for r in table.values()) == 1  # round 1's bye only


def test_two_players_of_one_name_are_two_players_told_apart_by_number(db_url):
    """Two John Smiths play: numbers of the night tell them apart on every list, a board's game (names on its
    tracks) files under the right one, a director names one by number where the name alone is two, and a
    third of the name joins only when the director says it is another player."""
    boards = Boards(db_url)
    for b in BOARDS[:2]:
        boards.play(b, ["Player 1", "Player 2"], 0, 100)  # (a board the database knows: one it synced)
    db = ["--db", db_url]
    names = {1: "John Smith", 2: "Ann", 3: "John Smith", 4: "Bob"}
    done = ok("night", "new", *names.values(), "--rounds", "3", *at(BOARDS[0], BOARDS[1]), "--seed", "5", *db)
    assert "2 players are named John Smith: they are John Smith #1, John Smith #3" in done.stderr
    count = {n: [0, 0, 0] for n in names}  # game points, wins, spread: counted here by number
    for number in (1, 2, 3):
        for k, g in enumerate(as_json("night", "round", str(number), *db)):
            first, second = g["numbers"]
            assert g["first"] == (names[first] if names[first] != "John Smith" else "John Smith #%d" % first)
            winner, loser = (first, second) if k % 2 else (second, first)
            lost_by = 121 - (95 + number + k)
            boards.play(g["board"], [names[first], names[second]], [first, second].index(winner), 121 - lost_by)
            count[winner][0] += 2
            count[winner][1] += 1
            count[winner][2] += lost_by
            count[loser][2] -= lost_by
    assert as_json("night", "flags", *db) == []
    standings = as_json("night", "standings", *db)
    assert {r["number"]: [r["game_points"], r["wins"], r["spread"]] for r in standings} == count
    assert sorted(r["player"] for r in standings) == ["Ann", "Bob", "John Smith #1", "John Smith #3"]
    assert "name one as #1 or #3" in refused("night", "card", "John Smith", *db)
    (card,) = as_json("night", "card", "#3", *db)
    assert (card["player"], card["number"]) == ("John Smith #3", 3)
    assert "playing tonight already" in refused("night", "join", "Ann", *db)
    assert "every round has begun" in refused("night", "join", "Ann", "--namesake", *db)


def test_a_result_by_hand_names_a_namesake_by_number_or_by_whom_they_played(db_url):
    db = ["--db", db_url]
    ok("night", "new", "John Smith", "Ann", "John Smith", "Bob", "--rounds", "3", "--seed", "5", *db)
    games = as_json("night", "round", "1", *db)
    g = next(g for g in games if "Ann" in (g["first"], g["second"]) or "Bob" in (g["first"], g["second"]))
    john = next(n for n, label in zip(g["numbers"], (g["first"], g["second"])) if label.startswith("John Smith"))
    other = next(label for label in (g["first"], g["second"]) if not label.startswith("John Smith"))
    ok("night", "result", "1", "John Smith", "121", other, "100", *db)  # the one John Smith drawn against them
    mine = next(r for r in as_json("night", "round", "1", *db) if r["numbers"] == g["numbers"])
    assert mine["winner"] == "John Smith #%d" % john
    both = [g for g in as_json("night", "round", "2", *db) + as_json("night", "round", "3", *db)]
    smiths = next(g for g in both if g["first"].startswith("John") and (g["second"] or "").startswith("John"))
    round_of_smiths = 2 if smiths in as_json("night", "round", "2", *db) else 3
    said = refused("night", "result", str(round_of_smiths), "John Smith", "121", "Zed", "100", *db)
    assert "Zed is not in night 1" in said
    ok("night", "result", str(round_of_smiths), "#3", "121", "#1", "110", *db)
    mine = next(r for r in as_json("night", "round", str(round_of_smiths), *db) if r["numbers"] == smiths["numbers"])
    assert (mine["winner"], mine["source"]) == ("John Smith #3", "hand")


def test_a_scorecard_is_crosschecked_against_the_boards_game(db_url):
    """A clerk enters every table's scorecard; where one disagrees with the game the board reported, the
    board's game is flagged (the card counts); the director takes the board's game, and the flag is gone."""
    boards = Boards(db_url)
    boards.play(BOARDS[0], ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    (g,) = as_json("night", "new", "Ann", "Bob", "--rounds", "1", *at(BOARDS[0]), "--seed", "1", *db)
    boards.play(g["board"], [g["first"], g["second"]], 0, 100)  # the board: the first won, 121-100
    ok("night", "result", "1", g["first"], "121", g["second"], "100", *db)  # a card that agrees
    assert as_json("night", "flags", *db) == []
    ok("night", "result", "1", g["first"], "121", g["second"], "110", *db)  # a card that does not
    (flag,) = as_json("night", "flags", *db)
    assert (flag["reason"], flag["card"], flag["round"]) == ("crosscheck", [121, 110], 1)
    assert as_json("night", "round", "1", *db)[0]["scores"] == [121, 110]  # the card counts meanwhile
    ok("night", "take", str(flag["game"]), *db)  # the board was right
    assert as_json("night", "flags", *db) == []
    assert as_json("night", "round", "1", *db)[0]["scores"] == [121, 100]


def test_an_end_with_games_not_in_is_refused_saying_where_and_an_end_is_undone_until_the_next_night(db_url):
    db = ["--db", db_url]
    drawn = as_json("night", "new", "Ann", "Bob", "Cy", "Di", "--rounds", "2", "--table", "1", "--table", "2", *db)
    said = refused("night", "end", *db)
    assert "night 1 has 4 games not in (round 1, tables 1, 2; round 2, tables 1, 2)" in said, said
    assert "--early" in said, said
    g = drawn[0]
    ok("night", "result", "1", g["first"], "121", g["second"], "100", *db)
    said = refused("night", "end", *db)
    assert "3 games not in (round 1, table %s; round 2, tables 1, 2)" % drawn[1]["table"] in said, said
    ended = as_json("night", "end", "--early", *db)  # the director ends it as it stands
    assert sum(r["games"] for r in ended) == 2, "the one game in counts for its two players"
    assert "has ended" in refused("night", "result", "1", drawn[1]["first"], "121", drawn[1]["second"], "90", *db)

    assert "night 1 is open again" in ok("night", "reopen", *db).stderr  # a slip, mended
    ok("night", "result", "1", drawn[1]["first"], "121", drawn[1]["second"], "90", *db)
    assert "not ended" in refused("night", "reopen", *db)
    ok("night", "end", "--early", *db)
    ok("night", "new", "Ed", "Flo", *db)
    said = refused("night", "reopen", "--night", "1", *db)
    assert "night 2 has begun since: night 1 can no longer be reopened" in said, said


def test_a_result_entered_in_the_wrong_round_says_the_round_the_pair_is_drawn_in(db_url):
    db = ["--db", db_url]
    ok("night", "new", "Ann", "Bob", "Cy", "Di", "--rounds", "3", "--table", "1", "--table", "2", *db)
    g = as_json("night", "round", "2", *db)[0]
    said = refused("night", "result", "1", g["first"], "121", g["second"], "100", *db)
    assert "%s and %s are drawn to play each other in round 2, not in round 1" % (g["first"], g["second"]) in said


def test_a_late_arrival_leaves_the_seated_round_as_it_is_unless_the_director_draws_it_again(db_url):
    db = ["--db", db_url]
    first = as_json("night", "new", "A", "B", "C", "D", "--rounds", "2", "--table", "1", "--table", "2", *db)
    joined = cli("night", "join", "E", "--json", *db)
    assert joined.returncode == 0, joined.stderr
    assert "rounds 2 to 2 are drawn again" in joined.stderr
    assert as_json("night", "round", "1", *db) == first, "round 1 is seated: kept though no game of it is in"
    assert any("E" in (g["first"], g["second"]) for g in json.loads(joined.stdout)), "E plays from round 2"
    ok("night", "join", "F", "--from", "1", *db)  # the director draws the seated round again
    assert {p for g in as_json("night", "round", "1", *db) for p in (g["first"], g["second"])} >= {"E", "F"}
    for g in as_json("night", "round", "1", *db):
        if g["second"]:
            ok("night", "result", "1", g["first"], "121", g["second"], "100", *db)
    said = refused("night", "join", "G", *db)  # round 2, the last, is in play now
    assert "round 2 is being played and is the last: give --from 2" in said, said


def test_a_table_named_as_a_known_board_is_seated_with_it_and_an_ambiguous_one_is_refused(db_url):
    boards = Boards(db_url)
    for b in BOARDS:  # the boards have synced before: the database knows them
        boards.play(b, ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    said = refused("night", "new", "A", "B", "C", "D", "--table", "b0ard", "--table", "Window", *db)
    assert "table 'b0ard' begins the ids of 3 boards" in said, said
    ok("night", "new", "A", "B", "C", "D", "--table", "b0ard-o", "--table", "Window", *db)  # as boards once were
    assert [(t["table"], t["board"]) for t in as_json("night", "tables", *db)] == [
        ("b0ard-o", "b0ard-one"),
        ("Window", None),
    ]
