# A database made by every earlier schema version, on both engines, is
# migrated when it is opened and then reads exactly as one that stored the
# same games today: a club's history survives every upgrade. The oldest
# version that still reads is 1 (games and events, no names): its games are
# seated as "Track N" by migration 3, as a board with no names reports them.
import json

import pytest
from clirun import cli
from test_barbu_cli import rubber_lines
from test_golden import EVENING, noon, steady
from test_records import good

from cribboard import records, store
from cribboard.sheets import barbu as barbu_sheet
from cribboard.sheets import storage
from cribrules import barbu

SYNCED = "2001-11-30T00:00:00+00:00"


def _records():
    """The evening's games as a board with no names logged them."""
    out = []
    for seq, (_won, _lost, score, _day) in enumerate(EVENING, 1):
        rec = good(seq, loser=score)
        rec.pop("names", None)
        out.append((seq, rec))
    return out


def _rubber():
    rubber = barbu.Rubber(0)
    for line in rubber_lines()[:10]:
        contract, result, doubles = barbu_sheet.parse_deal(line)
        rubber.add(contract, result, doubles)
    return rubber


def made_by_version(url, version):
    """A database made by the oldest cribboard (schema 1) with the evening's
    games, then upgraded as each later one up to schema `version` did it (a
    barbu rubber kept once there were rubbers)."""
    db = store.connect(url, migrated=False)
    if db.engine == "sqlite":  # (as migrate() does: a step may make a table again)
        db.execute("PRAGMA foreign_keys = OFF")
    with db.transaction():
        _tables(db, 1)
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version (version) VALUES (1)")
        db.execute(
            "INSERT INTO boards (board, first_sync, last_sync, firmware) VALUES ('b0ard', ?, ?, 't')", (SYNCED, SYNCED)
        )
        for seq, rec in _records():
            game = records.check(json.dumps(rec))
            game_id = db.value(
                "INSERT INTO games (board, seq, match_no, game_no, players, target, scheme, best_of, first_to, "
                "winner, skunk, points, scores, match_winner, ended_at, record, synced_at) "
                "VALUES ('b0ard', ?, ?, 1, 2, 121, 'acc', 1, NULL, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    seq,
                    rec["match"],
                    rec["winner"],
                    rec["skunk"],
                    rec["points"],
                    json.dumps(game.scores),
                    rec["match_result"]["winner"],
                    noon(EVENING[seq - 1][3]),
                    json.dumps(rec),
                    SYNCED,
                ),
            )
            for n, e in enumerate(rec["events"]):
                db.execute(
                    "INSERT INTO events (game_id, n, seat, side, points, kind, ticks) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, n, e[0], e[0] % 2, e[1], e[2], e[3]),
                )
        for v in range(2, version + 1):
            _tables(db, v)
            if v == 2:
                rubber = _rubber()
                names = ["Ann", "Bob", "Cy", "Di"]
                db.execute(
                    "INSERT INTO barbu_rubbers (names, record, totals, deals, finished, created, updated) "
                    "VALUES (?, ?, ?, ?, 0, ?, ?)",
                    (
                        json.dumps(names),
                        json.dumps(barbu_sheet.record(rubber, names)),
                        json.dumps(rubber.totals()),
                        len(rubber.deals),
                        SYNCED,
                        SYNCED,
                    ),
                )
        db.execute("UPDATE schema_version SET version = ?", (version,))
    db.close()


def _tables(db, version):
    for step in store.migrations.statements(version, db.engine):
        db.execute(step) if isinstance(step, str) else step(db)


def made_today(url):
    """The same games and rubber, stored by this cribboard."""
    db = store.connect(url)
    for seq, rec in _records():
        store.games.add(
            db, "b0ard", "t", [(seq, records.check(json.dumps(rec)))], SYNCED, {seq: noon(EVENING[seq - 1][3])}
        )
    names = ["Ann", "Bob", "Cy", "Di"]
    storage.save_rubber(db, _rubber(), names)
    db.close()


LISTINGS = (
    ["matches", "--json"],
    ["stats", "--json"],
    ["standings", "--json"],
    ["players", "list", "--json"],
    ["export", "--format", "json"],
)


def _read(url, with_barbu):
    out = {" ".join(args): steady(cli(*args, "--db", url).stdout) for args in LISTINGS}
    if with_barbu:
        rows = json.loads(cli("barbu", "list", "--json", "--db", url).stdout)
        out["barbu"] = [{k: v for k, v in r.items() if k != "updated"} for r in rows]
    return out


@pytest.mark.parametrize("version", range(1, store.migrations.SCHEMA_VERSION))
def test_a_database_of_every_earlier_version_reads_as_if_made_today(version, db_url, pg_cluster, tmp_path):
    made_by_version(db_url, version)
    today = str(tmp_path / "today.sqlite3") if db_url.endswith(".sqlite3") else pg_cluster.new_database()
    made_today(today)
    migrated = store.connect(db_url)  # opening it migrates it
    assert migrated.value("SELECT version FROM schema_version") == store.migrations.SCHEMA_VERSION
    migrated.close()
    old, new = _read(db_url, version >= 2), _read(today, version >= 2)
    assert old == new
    assert json.loads(old["players list --json"])[0]["name"] == "Track 1"


def test_a_current_database_is_read_while_another_program_holds_its_write_lock(tmp_path, monkeypatch):
    """Opening a database whose schema is this tool's already takes no write lock: `matches` reads while a
    sync or a server writes, and a file the user may read but not write is read."""
    import sqlite3

    path = tmp_path / "busy.sqlite3"
    store.connect(str(path)).close()
    monkeypatch.setenv("CRIBBOARD_DB_WAIT", "1")  # (before: it waited this out, then "stayed busy")
    writer = sqlite3.connect(str(path), isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another program, mid-write
    try:
        db = store.connect(str(path), create=False)
        try:
            assert db.value("SELECT COUNT(*) FROM games") == 0
        finally:
            db.close()
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_a_night_of_schema_12_keeps_its_tables_as_numbers_with_their_boards(db_url):
    """Before version 13 a night's tables were its boards: they become tables 1, 2, ... each with its board
    from round 1, and the board's games file where they did."""
    made_by_version(db_url, 12)
    db = store.connect(db_url, migrated=False)
    with db.transaction():
        night = db.value(
            "INSERT INTO nights (name, seed, rounds, scheme, tables, after_game, started_at) "
            "VALUES ('old', 1, 1, '{}', ?, 0, ?) RETURNING id",
            (json.dumps(["spare", "b0ard"]), SYNCED),
        )
        for n, name in enumerate(("Track 1", "Track 2", "Cy")):
            db.execute("INSERT INTO night_players (night_id, name, n, joined) VALUES (?, ?, ?, 1)", (night, name, n))
        db.execute(
            "INSERT INTO night_draw (night_id, round, n, board, first, second) VALUES (?, 1, 0, 'b0ard', ?, ?)",
            (night, "Track 1", "Track 2"),
        )
        db.execute(
            "INSERT INTO night_draw (night_id, round, n, board, first, second) VALUES (?, 1, 1, NULL, 'Cy', NULL)",
            (night,),
        )
    db.close()
    store.connect(db_url).close()  # opening it migrates it
    tables = json.loads(cli("night", "tables", "--json", "--db", db_url).stdout)
    assert [(t["table"], t["board"]) for t in tables] == [("1", "spare"), ("2", "b0ard")]
    games = json.loads(cli("night", "round", "1", "--json", "--db", db_url).stdout)
    assert [(g["table"], g["board"], g["source"]) for g in games] == [("2", "b0ard", "board"), (None, None, "bye")]


def test_a_night_of_schema_13_knows_its_players_by_number_after(db_url):
    """Before version 14 a night's players were their names: they become numbers 1, 2, ... in the order they
    came, the draw and the results entered by hand name them by number, and one who left stays gone."""
    made_by_version(db_url, 13)
    db = store.connect(db_url, migrated=False)
    with db.transaction():
        night = db.value(
            "INSERT INTO nights (name, seed, rounds, scheme, tables, after_game, started_at) "
            "VALUES ('old', 1, 2, '{}', ?, 0, ?) RETURNING id",
            (json.dumps(["1"]), SYNCED),
        )
        db.execute(
            "INSERT INTO night_boards (night_id, table_name, from_round, board) VALUES (?, '1', 1, NULL)", (night,)
        )
        for n, (name, left) in enumerate((("Ann", None), ("Bob", 2), ("Cy", None))):
            db.execute(
                "INSERT INTO night_players (night_id, name, n, joined, left_before) VALUES (?, ?, ?, 1, ?)",
                (night, name, n, left),
            )
        for rnd, n, table, first, second in (
            (1, 0, "1", "Bob", "Ann"),
            (1, 1, None, "Cy", None),
            (2, 0, "1", "Cy", "Ann"),
        ):
            db.execute(
                "INSERT INTO night_draw (night_id, round, n, table_name, first, second) VALUES (?, ?, ?, ?, ?, ?)",
                (night, rnd, n, table, first, second),
            )
        db.execute(
            "INSERT INTO night_results (night_id, round, first, second, first_score, second_score, target, "
            "entered_at) VALUES (?, 1, 'Ann', 'Bob', 121, 95, 121, ?)",
            (night, SYNCED),
        )
    db.close()
    store.connect(db_url).close()  # opening it migrates it
    games = json.loads(cli("night", "round", "1", "--json", "--db", db_url).stdout)
    assert [(g["first"], g["second"], g["numbers"], g["winner"], g["scores"]) for g in games] == [
        ("Bob", "Ann", [2, 1], "Ann", [95, 121]),
        ("Cy", None, [3, None], "Cy", None),
    ]
    standings = json.loads(cli("night", "standings", "--json", "--db", db_url).stdout)
    assert [(r["player"], r["number"], r["card"]) for r in standings] == [
        ("Ann", 1, "2/1"),
        ("Cy", 3, "2/1"),
        ("Bob", 2, "0/0"),
    ]
    history = json.loads(cli("night", "history", "--json", "--db", db_url).stdout)
    assert [(h["first"], h["second"], h["numbers"]) for h in history] == [("Ann", "Bob", [1, 2])]
    round_two = json.loads(cli("night", "round", "2", "--json", "--db", db_url).stdout)
    assert [(g["first"], g["second"]) for g in round_two] == [("Cy", "Ann")]
