# `cribboard piquet sheet`: a partie kept without a board, deal by deal,
# and its place among the boards' games (matches, stats, export).
import json
import os
import pty
import select
import subprocess
import sys

from clirun import cli, one_line_error
from deadline import WAIT_S

RUBICONED = ["45 12", "30 40", "20 20", "10 9", "12 12", "0 2"]  # Ann 117, Bob 95: Bob under 100


def sheet(tmp_path, lines, *args, db=None):
    path = tmp_path / "partie.txt"
    path.write_text("".join(line + "\n" for line in lines))
    return cli("piquet", "sheet", str(path), "--names", "Ann,Bob", "--db", db or str(tmp_path / "club.sqlite3"), *args)


def test_a_partie_from_a_file_is_scored_with_the_rubicon_and_listed_among_the_games(tmp_path, db_url):
    done = sheet(tmp_path, ["# Tuesday", *RUBICONED], db=db_url)
    assert done.returncode == 0, done.stderr
    assert "Ann wins; Bob is rubiconed (95, under 100): 100 + 117 + 95 = 312 points" in done.stdout
    assert "saved as piquet sheet 1" in done.stderr
    assert "unfinished" not in done.stderr
    rows = json.loads(cli("matches", "--db", db_url, "--json").stdout)
    assert [
        (r["board"], r["kind"], r["names"], r["scores"], r["winner"], r["result"], r["game_points"]) for r in rows
    ] == [("sheet:piquet", "piquet", ["Ann", "Bob"], [117, 95], "Ann", "rubicon", 312)]
    table = cli("matches", "--db", db_url).stdout
    assert "rubicon" in table
    assert "312" in table
    piquet = json.loads(cli("stats", "--db", db_url, "--json").stdout)["piquet"]
    assert piquet == [
        {
            "player": "Ann",
            "parties": 1,
            "wins": 1,
            "losses": 0,
            "draws": 0,
            "rubicons_given": 1,
            "rubicons_taken": 0,
            "points": 312,
        },
        {
            "player": "Bob",
            "parties": 1,
            "wins": 0,
            "losses": 1,
            "draws": 0,
            "rubicons_given": 0,
            "rubicons_taken": 1,
            "points": -312,
        },
    ]
    csv_rows = cli("export", "--db", db_url).stdout.splitlines()
    assert "sheet:piquet" in csv_rows[1]
    assert ",rubicon," in csv_rows[1]
    exported = json.loads(cli("export", "--format", "json", "--db", db_url).stdout)
    assert exported[0]["record"]["names"] == ["Ann", "Bob"]
    assert exported[0]["record"]["points"] == 312
    shown = json.loads(cli("piquet", "show", "1", "--db", db_url, "--json").stdout)
    assert shown["totals"] == [117, 95]
    assert shown["result"] == {"winner": "Ann", "points": 312, "result": "rubicon"}
    assert [d["dealer"] for d in shown["deals"]] == ["Ann", "Bob"] * 3


def test_a_tie_after_six_deals_plays_two_more_and_a_tie_after_eight_is_a_draw(tmp_path):
    db = str(tmp_path / "club.sqlite3")
    done = sheet(tmp_path, ["100 100"] + ["20 20"] * 5, "--json", db=db)
    assert done.returncode == 0
    assert json.loads(done.stdout)["finished"] is False  # 200 all: two more deals
    assert cli("matches", "--db", db, "--json").stdout.strip() == "[]"
    done = cli("piquet", "sheet", "--resume", "1", "--db", db, "--json", stdin="5 5\n7 7\n")
    partie = json.loads(done.stdout)
    assert partie["finished"]
    assert partie["totals"] == [212, 212]
    assert partie["result"]["result"] == "draw"
    assert len(partie["deals"]) == 8
    (row,) = json.loads(cli("matches", "--db", db, "--json").stdout)
    assert (row["winner"], row["result"], row["game_points"]) == (None, "draw", None)
    assert "draw" in cli("matches", "--db", db).stdout
    stats = json.loads(cli("stats", "--db", db, "--json").stdout)["piquet"]
    assert [(s["draws"], s["wins"], s["points"]) for s in stats] == [(1, 0, 0), (1, 0, 0)]
    done = cli("piquet", "sheet", "--resume", "1", "--db", db, stdin="1 1\n")
    assert "the partie is over" in one_line_error(done, 2)


def test_undo_and_fix_reach_a_finished_partie_in_the_games(tmp_path):
    db = str(tmp_path / "club.sqlite3")
    assert sheet(tmp_path, RUBICONED, db=db).returncode == 0
    done = cli("piquet", "sheet", "--resume", "1", "--db", db, stdin="undo\n")
    assert "removed deal 6 (Bob dealt, Ann elder): Ann +0, Bob +2" in done.stderr
    assert json.loads(cli("matches", "--db", db, "--json").stdout) == []  # unfinished again: not a game
    done = cli("piquet", "sheet", "--resume", "1", "--db", db, stdin="0 2\nfix 1 45 20\n")
    assert (
        "fixed: deal 1 (Ann dealt, Bob elder): Ann +45, Bob +20 (was: deal 1 (Ann dealt, Bob elder): "
        "Ann +45, Bob +12)" in done.stderr
    )
    (row,) = json.loads(cli("matches", "--db", db, "--json").stdout)
    assert (row["scores"], row["result"], row["game_points"]) == ([117, 103], "win", 114)
    assert json.loads(cli("players", "list", "--db", db, "--json").stdout)[0]["games"] == 1  # stored once


def test_a_bad_line_names_itself_and_how_to_go_on(tmp_path):
    db = str(tmp_path / "club.sqlite3")
    for bad, why in (
        ("45", "two counts"),
        ("45 x", "'x' is not a number"),
        ("251 0", "0 to 250"),
        ("4_5 1", "not a number"),
        ("١٢ 3", "not a number"),
        ("fix 9 1 1", "no deal 9"),
        ("fix 1", "fix N A B"),
    ):
        done = sheet(tmp_path, ["45 12", "30 40", bad, "20 20"], db=db)
        last = one_line_error(done, 2)
        assert last.startswith("cribboard: error: line 3: ") and why in last, (bad, last)
        assert "go on with `cribboard piquet sheet --resume" in last
        assert "--db" in last
    shown = json.loads(cli("piquet", "show", "1", "--db", db, "--json").stdout)
    assert [d["points"] for d in shown["deals"]] == [[45, 12], [30, 40]]  # nothing from the bad line on
    assert "no piquet sheet 99" in one_line_error(cli("piquet", "show", "99", "--db", db), 2)
    assert "two names" in one_line_error(cli("piquet", "sheet", "--names", "Ann", "--db", db, stdin=""), 2)


def test_a_kept_sheet_that_cannot_be_read_is_one_line_and_spoils_nothing(tmp_path):
    import sqlite3

    db = str(tmp_path / "club.sqlite3")
    assert sheet(tmp_path, RUBICONED, db=db).returncode == 0
    assert sheet(tmp_path, RUBICONED[:2], db=db).returncode == 0
    with sqlite3.connect(db) as conn:
        conn.execute('UPDATE piquet_sheets SET record = \'{"first_dealer": 0, "deals": [[300, 0]]}\' WHERE id = 2')
    listed = json.loads(cli("piquet", "list", "--db", db, "--json").stdout)
    assert listed[0]["totals"] == [117, 95]
    assert listed[1]["problem"].startswith("deal 1: ")
    assert "cannot be read: deal 1: " in cli("piquet", "list", "--db", db).stdout
    assert "cannot be read back" in one_line_error(cli("piquet", "show", "2", "--db", db), 2)
    assert len(json.loads(cli("matches", "--db", db, "--json").stdout)) == 1


def _reference(deals):
    """An independent reading of the rules: six deals, two more on a tie;
    the winner scores 100 and the difference, or 100 and both totals when
    the loser is under 100; a tie after eight is drawn."""
    totals = [0, 0]
    used = 0
    for a, b in deals:
        totals[0] += a
        totals[1] += b
        used += 1
        if (used == 6 and totals[0] != totals[1]) or used == 8:
            break
    if totals[0] == totals[1]:
        return used, totals, ("draw", None, None)
    w = 0 if totals[0] > totals[1] else 1
    lost = totals[1 - w]
    return (
        used,
        totals,
        ("rubicon" if lost < 100 else "win", w, 100 + (totals[0] + totals[1] if lost < 100 else totals[w] - lost)),
    )


def test_random_parties_through_the_sheets_lines_agree_with_an_independent_reading(tmp_path):
    seed = 20261124
    db = str(tmp_path / "club.sqlite3")
    for n in range(25):
        deals = []
        for _ in range(8):
            seed = (seed * 1103515245 + 12345) % 2**31
            a = seed % 60 if seed % 7 else seed % 250
            seed = (seed * 1103515245 + 12345) % 2**31
            b = a if n % 4 == 0 and seed % 3 else seed % 60  # many ties, so the extra deals are played
            deals.append((a, b))
        used, totals, result = _reference(deals)
        lines = ["%d %d" % d for d in deals[:used]]
        done = sheet(tmp_path, lines, "--json", db=db)
        assert done.returncode == 0, done.stderr
        partie = json.loads(done.stdout)
        assert partie["totals"] == totals and len(partie["deals"]) == used and partie["finished"], (n, deals)
        kind, w, points = result
        assert partie["result"] == {
            "winner": None if w is None else ["Ann", "Bob"][w],
            "points": points,
            "result": kind,
        }, (n, deals)
        (row,) = [r for r in json.loads(cli("matches", "--db", db, "--json").stdout) if r["seq"] == partie["id"]]
        assert (row["result"], row["game_points"]) == (kind, points)
        if used < 8:  # a partie decided is over: a further deal is refused
            extra = sheet(tmp_path, lines + ["1 1"], db=db)
            assert "the partie is over" in one_line_error(extra, 2)


def test_typed_the_table_sees_each_deal_and_an_empty_line_is_nothing(tmp_path):
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cribboard",
            "piquet",
            "sheet",
            "--names",
            "Ann,Bob",
            "--first-dealer",
            "2",
            "--db",
            str(tmp_path / "club.sqlite3"),
        ],
        stdin=child,
        stdout=child,
        stderr=child,
        close_fds=True,
    )
    os.close(child)
    seen = b""

    def until(text):
        nonlocal seen
        while text.encode() not in seen:
            ready, _, _ = select.select([main], [], [], 60)
            assert ready, seen.decode(errors="replace")
            seen += os.read(main, 4096)
        at = seen.index(text.encode()) + len(text)
        out, seen = seen[:at].decode(), seen[at:]
        return out

    try:
        until("deal 1: Bob deals, Ann is elder")
        os.write(main, b"\n")  # nothing: asked again
        until("deal 1: Bob deals")
        os.write(main, b"45\n")  # said, not entered, and the sheet goes on
        assert "not entered: a deal is two counts" in until("deal 1: Bob deals")
        os.write(main, b"45 12\n")
        out = until("deal 2: Ann deals, Bob is elder")
        assert "deal 1 (Bob dealt, Ann elder): Ann +45, Bob +12" in out
        assert "totals: Ann 45, Bob 12" in out
        os.write(main, b"quit\n")
        out = until("unfinished: `cribboard piquet sheet --resume 1")
        assert "45 (45)" in out
        assert proc.wait(timeout=WAIT_S) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)


STRONG = "AS KS QS JS TS AH KH QH AD KD AC KC"
WEAK = "9S 8S 7S JH TH 9H 8H QD JD TD QC JC"
# Elder took one card, younger all five left (seed 002): elder the spades, hearts and two diamonds as dealt.
FIVE = (
    "AS KS QS JS TS AH KH QH JH TH AD AC / KC QC JC TC 9C 7H QD JD TD 9D 8D 7D / EEEEEEEEEEEE"
    " / AS KS QS JS TS AH KH QH JH TH AD KD / 9S 8S 7S 9H 8H 7H QD JD TD 9D 8D 7D"
)


def deal_scores(*args):
    """`piquet deal --json`'s totals, [elder, younger]: the sheet must agree with it."""
    done = cli("piquet", "deal", *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["scores"]


def test_a_deal_written_as_its_cards_is_scored_as_piquet_deal_scores_it_and_kept_as_codes(tmp_path):
    db = str(tmp_path / "club.sqlite3")
    strong = deal_scores("--elder", STRONG, "--younger", WEAK, "--tricks", "E" * 12)
    five = deal_scores(
        "--elder",
        FIVE.split(" / ")[0],
        "--younger",
        FIVE.split(" / ")[1],
        "--tricks",
        "E" * 12,
        "--elder-dealt",
        FIVE.split(" / ")[3],
        "--younger-dealt",
        FIVE.split(" / ")[4],
    )
    # Ann deals first: Bob is elder in deal 1, Ann in deal 2 (younger took five there).
    done = sheet(
        tmp_path,
        ["cards %s / %s / %s" % (STRONG, WEAK, "E" * 12), "cards " + FIVE, "20 30"] + ["10 10"] * 3,
        "--json",
        db=db,
    )
    assert done.returncode == 0, done.stderr
    partie = json.loads(done.stdout)
    assert [d["points"] for d in partie["deals"]][:3] == [[strong[1], strong[0]], [five[0], five[1]], [20, 30]]
    assert partie["finished"]  # six deals: stored among the games, as a board's partie is
    (row,) = json.loads(cli("matches", "--db", db, "--json").stdout)
    assert row["board"] == "sheet:piquet"
    assert row["scores"] == partie["totals"]
    assert partie["deals"][0]["cards"] == {
        "elder": "AS KS QS JS 10S AH KH QH AD KD AC KC",
        "younger": "9S 8S 7S JH 10H 9H 8H QD JD 10D QC JC",
        "tricks": "E" * 12,
    }
    assert partie["deals"][1]["cards"]["younger_dealt"].startswith("9S 8S 7S")
    assert partie["deals"][0]["scored"]["scores"] == strong
    assert "cards" not in partie["deals"][2]
    # Kept as codes and letters, and read back the same in another language.
    german = cli("--lang", "de", "piquet", "show", "1", "--db", db, "--json")
    assert json.loads(german.stdout) == partie
    shown = cli("--lang", "de", "piquet", "show", "1", "--db", db).stdout
    assert "Vorhand" in shown
    assert "elder" not in shown
    english = cli("piquet", "show", "1", "--db", db).stdout
    assert "sequence elder quint to the ace" in english


def test_the_sheet_shows_a_card_deal_before_adding_it_and_undo_fix_and_resume_take_both_kinds(tmp_path):
    db = str(tmp_path / "club.sqlite3")
    done = sheet(tmp_path, ["10 20", "cards %s / %s / %s" % (WEAK, STRONG, "Y" * 12)], db=db)
    assert done.returncode == 0, done.stderr
    lines = cli(
        "piquet",
        "sheet",
        "--resume",
        "1",
        "--db",
        db,
        "--json",
        stdin="undo\nfix 1 cards %s / %s / %s\n" % (STRONG, WEAK, "E" * 12),
    )
    assert lines.returncode == 0, lines.stderr
    partie = json.loads(lines.stdout)
    strong = deal_scores("--elder", STRONG, "--younger", WEAK, "--tricks", "E" * 12)
    assert [d["points"] for d in partie["deals"]] == [[strong[1], strong[0]]]  # deal 1: Bob elder
    again = cli("piquet", "sheet", "--resume", "1", "--db", db, "--json", stdin="fix 1 5 6\n")
    assert [d["points"] for d in json.loads(again.stdout)["deals"]] == [[5, 6]]


def test_a_bad_card_line_is_one_line_in_the_readers_language_and_enters_nothing(tmp_path):
    db = str(tmp_path / "club.sqlite3")
    for line, why in (
        ("cards %s / %s" % (STRONG, WEAK), "a deal from the cards is"),
        ("cards %s / %s / EEE" % (STRONG, WEAK), "12 letters"),
        ("cards %s / %s / %s" % (STRONG, STRONG, "E" * 12), "duplicate"),
        ("cards " + FIVE.replace("AD AC /", "AD KD /", 1), "exchanges 1 to 5"),
    ):
        done = sheet(tmp_path, ["10 20", line], db=db)
        assert done.returncode == 2 and "line 2:" in done.stderr and why in done.stderr, (line, done.stderr)
        assert "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) <= 2
    path = tmp_path / "bad.txt"
    path.write_text("cards %s / %s / EEE\n" % (STRONG, WEAK))
    german = cli("--lang", "de", "piquet", "sheet", str(path), "--names", "Ann,Bob", "--db", db)
    assert german.returncode == 2 and "Zeile 1:" in german.stderr and "12 letters" not in german.stderr, german.stderr
