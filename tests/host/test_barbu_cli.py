# The barbu score sheet on the command line, and the database it lives in.
import json
import sqlite3

from clirun import cli

from cribboard import store

LINES = {
    "barbu": "barbu 3",
    "hearts": "hearts 5 4 3 1 ace=2",
    "queens": "queens 1 3 0 0",
    "tricks": "tricks 4 3 3 3",
    "last2": "last2 1 4",
    "trumps": "trumps 5 2 2 4",
    "domino": "domino 4 1 3 2",
}


def rubber_lines(first_dealer=1):
    out = []
    for r in range(4):
        dealer = (first_dealer - 1 + r) % 4 + 1
        for k, contract in enumerate(LINES):
            line = LINES[contract]
            if k < 2:  # everyone doubles the dealer twice, the second time redoubled
                line += " | " + " ".join("%dx%d%s" % (p, dealer, "!" if k else "") for p in range(1, 5) if p != dealer)
            out.append(line)
    return out


def test_a_whole_rubber_from_a_file(tmp_path, db_url):
    sheet = tmp_path / "rubber.txt"
    sheet.write_text("# our Tuesday game\n" + "\n".join(rubber_lines()) + "\n")
    dbfile = db_url
    done = cli("barbu", "sheet", str(sheet), "--names", "Ann,Bob,Cy,Di", "--db", dbfile)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count("round of") == 4
    assert "Final:" in out
    assert "CHECK FAILED" not in out
    assert "saved as barbu rubber 1" in done.stderr
    assert "unfinished" not in done.stderr
    listed = json.loads(cli("barbu", "list", "--db", dbfile, "--json").stdout)
    assert listed[0]["finished"]
    assert listed[0]["deals"] == 28
    assert sum(listed[0]["totals"]) == 0
    assert listed[0]["names"] == ["Ann", "Bob", "Cy", "Di"]
    table = cli("barbu", "list", "--db", dbfile).stdout
    assert " yes " in table
    assert "True" not in table
    assert "* doubled the dealer" in out  # the legend of the marks the rows show
    done = cli("barbu", "sheet", "--resume", "1", "--db", dbfile, stdin="queens 1 3 0 0\n")
    assert done.returncode == 2
    assert "28 deals" in done.stderr
    assert "--resume" not in done.stderr
    shown = json.loads(cli("barbu", "show", "1", "--db", dbfile, "--json").stdout)
    assert len(shown["deals"]) == 28
    assert shown["totals"] == listed[0]["totals"]
    csv_text = cli("export", "--what", "barbu", "--db", dbfile).stdout.splitlines()
    assert csv_text[0].startswith("id,deals,finished")
    assert "Ann" in csv_text[1]
    exported = json.loads(cli("export", "--what", "barbu", "--format", "json", "--db", dbfile).stdout)
    assert len(exported[0]["record"]["deals"]) == 28
    again = json.loads(cli("barbu", "sheet", str(sheet), "--names", "Ann,Bob,Cy,Di", "--db", dbfile, "--json").stdout)
    assert (again["id"], again["names"], again["totals"]) == (2, listed[0]["names"], listed[0]["totals"])


def test_a_sheet_with_no_double_of_the_dealer_shows_no_legend_for_it_and_an_unfinished_one_says_no(tmp_path):
    db = str(tmp_path / "b.db")
    done = cli("barbu", "sheet", "--names", "A,B,C,D", "--db", db, stdin="queens 1 3 0 0 | 2x3\n")
    assert done.returncode == 0 and "doubled the dealer" not in done.stdout, done.stdout  # 2 doubled 3, not A
    table = cli("barbu", "list", "--db", db).stdout
    assert " no " in table
    assert "False" not in table
    assert " nein " in cli("barbu", "list", "--db", db, env={"LANG": "de_DE.UTF-8"}).stdout


def test_a_bad_line_names_itself_and_the_sheet_can_be_resumed(tmp_path):
    lines = rubber_lines()
    dbfile = str(tmp_path / "club.sqlite3")
    broken = lines[:9] + ["queens 1 3 0 1"] + lines[9:]
    store.connect(dbfile).close()  # the club's database, made before: nothing to say about making it
    done = cli("barbu", "sheet", "--db", dbfile, stdin="\n".join(broken) + "\n")
    assert done.returncode == 2
    assert done.stderr == (
        "cribboard: error: line 10: queens adds up to 5; it must be 4 (nothing from this "
        "line on was entered). The rubber is saved as barbu rubber 1: go on with `cribboard "
        "barbu sheet --resume 1 --db %s`.\n" % dbfile
    )
    assert json.loads(cli("barbu", "list", "--db", dbfile, "--json").stdout)[0]["deals"] == 9
    again = cli("barbu", "sheet", "--resume", "1", "--db", dbfile, stdin="\n".join(lines[9:]) + "\n")
    assert again.returncode == 0
    assert "Final:" in again.stdout
    again = cli("barbu", "sheet", "--db", dbfile, stdin="queens 1 3 0 0\nqueens 1 3 0 0\n")
    assert again.returncode == 2
    assert "already played queens" in again.stderr
    missing = cli("barbu", "show", "9", "--db", dbfile)
    assert missing.returncode == 2
    assert missing.stderr.startswith("cribboard: error: no barbu rubber 9")


def test_the_sheet_reports_each_deal_undoes_and_fixes_in_words_and_an_empty_line_is_nothing(tmp_path):
    dbfile = str(tmp_path / "club.sqlite3")
    lines = [
        "queens 1 3 0 0 | 2x1 3x1!",
        "",
        "tricks 4 3 3 3 | 4x2",
        "undo",
        "tricks 4 3 3 3 | 4x1",
        "fix 1 queens 0 4 0 0 | 2x1",
        "domino 4 1 3",
    ]
    done = cli(
        "barbu", "sheet", "--names", "Ana,Bea,Carlos,Dani", "--db", dbfile, "--json", stdin="\n".join(lines) + "\n"
    )
    assert done.returncode == 0, done.stderr
    err = done.stderr
    assert "removed deal 2, tricks by Ana; Dani doubled Bea" in err
    assert (
        "fixed: deal 1, queens by Ana; Bea doubled Ana (was: deal 1, queens by Ana; Bea doubled Ana, "
        "Carlos doubled Ana (redoubled))" in err
    )
    rec = json.loads(done.stdout)
    assert [d["contract"] for d in rec["deals"]] == ["queens", "tricks", "domino"]
    assert rec["deals"][0]["result"] == {"queens": [0, 4, 0, 0]}
    assert rec["deals"][2]["result"] == {"order": [3, 0, 2, 1]}  # Bea (seat 2), left out, went out last
    assert sum(rec["totals"]) == -24 - 26 + 65
    refused = cli("barbu", "sheet", "--names", "Ana,Bea,Carlos,Dani", "--db", dbfile, stdin="queens 1 3 0 0 | 1x3\n")
    assert refused.returncode == 2
    assert "Ana deals: the dealer doubles no one" in refused.stderr
    for line, why in (
        ("tricks 1_0 1 1 1", "not a number"),
        ("queens 1 3 0 0 | 2x1!!", "with one !"),
        ("fix 5 barbu 1", "no deal 5"),
        ("undo", "no deal to undo"),
    ):
        bad = cli("barbu", "sheet", "--db", dbfile, stdin=line + "\n")
        assert bad.returncode == 2 and why in bad.stderr, (line, bad.stderr)


def test_a_round_short_of_doubles_is_played_warned_and_marked(tmp_path):
    dbfile = str(tmp_path / "club.sqlite3")
    contracts = list(LINES)
    lines = [LINES[c] + (" | 2x1 3x1" if k < 2 else "") for k, c in enumerate(contracts)]  # Dani never doubles
    done = cli("barbu", "sheet", "--names", "Ana,Bea,Carlos,Dani", "--db", dbfile, stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    assert "warning: Dani must double Ana in every one of the 2 deals left in the round" in done.stderr
    assert "warning: Dani can no longer double Ana twice in this round (1 deal left, 2 to go)" in done.stderr
    assert "marked: Dani doubled Ana 0 times in the round, not 2" in done.stderr
    assert "SHORT: Dani doubled Ana 0 times in Ana's round, not 2" in done.stdout
    shown = cli("barbu", "show", "1", "--db", dbfile)
    assert "SHORT: Dani doubled Ana 0 times" in shown.stdout
    exported = json.loads(cli("export", "--what", "barbu", "--format", "json", "--db", dbfile).stdout)
    assert exported[0]["record"]["shortfalls"] == [{"dealer": 0, "player": 3, "doubled": 0}]


def test_a_stored_rubber_that_cannot_be_read_back_is_one_line_and_spoils_nothing_else(tmp_path):
    dbfile = str(tmp_path / "club.sqlite3")
    assert cli("barbu", "sheet", "--db", dbfile, stdin="queens 1 3 0 0\n").returncode == 0
    assert cli("barbu", "sheet", "--db", dbfile, stdin="tricks 4 3 3 3\n").returncode == 0
    conn = sqlite3.connect(dbfile)
    rec = json.loads(conn.execute("SELECT record FROM barbu_rubbers WHERE id = 1").fetchone()[0])
    for doubles in (None, 5, [5]):
        rec["deals"][0]["doubles"] = doubles
        conn.execute("UPDATE barbu_rubbers SET record = ? WHERE id = 1", (json.dumps(rec),))
        conn.commit()
        for args in (["barbu", "show", "1"], ["barbu", "sheet", "--resume", "1"]):
            done = cli(*args, "--db", dbfile, stdin="")
            assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
            assert done.stderr.startswith("cribboard: error: barbu rubber 1 cannot be read back: deal 1:")
        exported = cli("export", "--what", "barbu", "--format", "json", "--db", dbfile)
        assert exported.returncode == 0
        assert "Traceback" not in exported.stderr
        rows = json.loads(exported.stdout)
        assert [r["id"] for r in rows] == [2]
        assert "rubber 1" in exported.stderr
    conn.close()


def test_an_old_database_is_migrated_and_keeps_its_games(tmp_path):
    """A file from before the schema_version table: its version in SQLite's header."""
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(";\n".join(str(s) for s in store.migrations.statements(1, "sqlite")))
    conn.execute("INSERT INTO boards VALUES ('b1', 'x', 'x', '0.1')")
    conn.execute(
        "INSERT INTO games (board, seq, match_no, game_no, players, target, scheme, scores, record, "
        "synced_at) VALUES ('b1', 1, 1, 1, 2, 121, 'acc', '[121, 80]', '{}', 'x')"
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    new = store.connect(str(path))
    assert new.value("SELECT version FROM schema_version") == store.migrations.SCHEMA_VERSION
    assert new.value("SELECT COUNT(*) FROM games") == 1
    assert new.value("SELECT COUNT(*) FROM barbu_rubbers") == 0
    new.execute("UPDATE schema_version SET version = 99")
    new.close()
    refused = cli("matches", "--db", str(path))
    assert refused.returncode == 1
    assert "newer cribboard" in refused.stderr


def test_every_migration_runs_on_both_engines_and_once(db_url):
    first = store.connect(db_url)
    assert first.value("SELECT version FROM schema_version") == store.migrations.SCHEMA_VERSION
    first.close()
    again = store.connect(db_url)  # nothing left to do: no error, one version row
    assert again.all("SELECT version FROM schema_version") == [{"version": store.migrations.SCHEMA_VERSION}]
    again.close()


def test_a_database_that_cannot_be_reached_or_read_is_one_line(tmp_path, pg_cluster):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database at all" * 100)
    for url in (str(junk), pg_cluster.url("no_such_database")):
        done = cli("matches", "--db", url)
        assert done.returncode == 1
        assert done.stderr.startswith("cribboard: error: ")
        assert "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1, done.stderr


def test_the_partnership_game_pools_each_pairs_totals_beside_each_players(tmp_path):
    dbfile = str(tmp_path / "club.sqlite3")
    sheet = tmp_path / "rubber.txt"
    sheet.write_text("\n".join(rubber_lines()) + "\n")
    done = cli("barbu", "sheet", str(sheet), "--names", "Ann,Bob,Cy,Di", "--partners", "2+4,1+3", "--db", dbfile)
    assert done.returncode == 0, done.stderr
    rec = json.loads(cli("barbu", "show", "1", "--db", dbfile, "--json").stdout)
    t = rec["totals"]
    assert rec["partners"] == [[0, 2], [1, 3]]
    assert rec["pair_totals"] == [t[0] + t[2], t[1] + t[3]]
    assert "Final, pairs: " in done.stdout
    assert "pairs: Ann+Cy" in done.stdout
    assert "pairs Ann+Cy %d, Bob+Di %d" % (t[0] + t[2], t[1] + t[3]) in cli("barbu", "list", "--db", dbfile).stdout
    rows = cli("export", "--what", "barbu", "--db", dbfile).stdout.splitlines()
    head, row = rows[0].split(","), rows[1].split(",")
    assert row[head.index("pair1")] == "Ann+Cy"
    assert row[head.index("pair_total2")] == str(t[1] + t[3])
    exported = json.loads(cli("export", "--what", "barbu", "--format", "json", "--db", dbfile).stdout)
    assert exported[0]["record"]["pair_totals"] == rec["pair_totals"]
    for bad in ("1+2", "1+2,2+3", "1+3,2+5", "1,2"):
        refused = cli("barbu", "sheet", "--partners", bad, "--db", dbfile, stdin="")
        assert refused.returncode == 2 and "--partners" in refused.stderr, (bad, refused.stderr)
    changed = cli("barbu", "sheet", "--resume", "1", "--partners", "1+2,3+4", "--db", dbfile, stdin="")
    assert changed.returncode == 2
    assert "played in pairs 1+3,2+4" in changed.stderr


def random_result(rng, contract):
    """A result the contract can have (cards shared out, seats once each)."""

    def counts(total):
        cuts = sorted(rng.randint(0, total) for _ in range(3))
        return [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], total - cuts[2]]

    if contract == "barbu":
        return {"taker": rng.randrange(4)}
    if contract == "hearts":
        h = counts(13)
        return {"hearts": h, "ace": rng.choice([p for p in range(4) if h[p]])}
    if contract == "queens":
        return {"queens": counts(4)}
    if contract in ("tricks", "trumps"):
        return {"tricks": counts(13)}
    if contract == "last2":
        return {"twelfth": rng.randrange(4), "thirteenth": rng.randrange(4)}
    return {"order": rng.sample(range(4), 4)}


def test_random_rubbers_piped_through_the_sheet_keep_every_round_and_the_rubber_at_zero(tmp_path):
    import random

    from cribboard.sheets import barbu as barbu_sheet
    from cribrules.barbu import DEALS, Rubber, load_rubber

    rng = random.Random(20261124)
    dbfile = str(tmp_path / "club.sqlite3")
    for n in range(4):
        r = Rubber(n % 4)
        lines = []
        while not r.over():
            dealer = r.dealer()
            contract = rng.choice(r.remaining())
            doubles = [
                [p, q, rng.random() < 0.5]
                for p in range(4)
                for q in range(4)
                if p != q and p != dealer and p < q and rng.random() < 0.3
            ]
            if n % 2 == 0 and len(r.deals) % 7 < 2:  # this table keeps the duty; the other falls short
                doubles = [d for d in doubles if dealer not in d[:2]]
                doubles += [[p, dealer, rng.random() < 0.5] for p in range(4) if p != dealer]
            line = barbu_sheet.deal_line(contract, random_result(rng, contract), doubles)
            if rng.random() < 0.1:
                lines += [line, "undo"]  # typed, taken back, typed again
            lines.append(line)
            r.add(*barbu_sheet.parse_deal(line))
            if rng.random() < 0.1:
                k = rng.randrange(len(r.deals))
                _, c, _, d, _ = r.deals[k]
                fixed = barbu_sheet.deal_line(c, random_result(rng, c), d)
                lines.append("fix %d %s" % (k + 1, fixed))
                r = barbu_sheet.rebuilt(
                    r,
                    [
                        (c2, res2, d2) if i != k else barbu_sheet.parse_deal(fixed)
                        for i, (_, c2, res2, d2, _) in enumerate(r.deals)
                    ],
                )
        path = tmp_path / ("rubber%d.txt" % n)
        path.write_text("\n".join(lines) + "\n")
        done = cli("barbu", "sheet", str(path), "--first-dealer", str(n % 4 + 1), "--db", dbfile, "--json")
        assert done.returncode == 0, done.stderr
        assert "CHECK FAILED" not in done.stderr
        kept = json.loads(done.stdout)
        assert len(kept["deals"]) == DEALS
        assert kept["totals"] == r.totals()
        assert sum(kept["totals"]) == 0
        back = load_rubber(kept)  # what was stored, every deal checked again
        assert all(sum(back.round_totals(dealer)) == 0 for dealer in range(4))
        assert bool(kept.get("shortfalls")) == (n % 2 == 1)
