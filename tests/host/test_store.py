# The storage layer on its own (cribboard.store), each test on SQLite and on
# the real PostgreSQL server the tests start: a sync's games stored once,
# the records kept apart and the crashes, the players and their seats, the
# sheets, what the listings read, and the engine's errors.
import json

import pytest
from test_records import good

from cribboard import records, store
from cribcore.partie import PiquetMatch
from cribcore.record import game_record

NOW = "2001-11-30T00:00:00+00:00"


@pytest.fixture
def db(db_url):
    conn = store.connect(db_url)
    yield conn
    conn.close()


def game(seq, loser=80, names=("Ann", "Bob")):
    return seq, records.check(json.dumps(good(seq, loser=loser, names=list(names))))


def test_a_sync_stores_each_game_once_with_its_events_and_seats(db):
    assert store.games.last_seq(db, "b0ard") == 0
    assert store.games.add(db, "b0ard", "1.0", [game(1), game(2, 95)], NOW, {1: 1e9, 2: None}) == 2
    assert store.games.add(db, "b0ard", "1.1", [game(2, 95), game(3, 100)], NOW, {}) == 1  # 2 is there already
    assert store.games.last_seq(db, "b0ard") == 3
    assert store.games.last_seq(db, "other") == 0
    rows = store.results.games(db)
    assert [(r["seq"], r["winner"], json.loads(r["scores"])) for r in rows] == [
        (1, 0, [121, 80]),
        (2, 0, [121, 95]),
        (3, 0, [121, 100]),
    ]
    assert rows[0]["ended_at"] == 1e9
    assert rows[1]["ended_at"] is None
    assert store.results.boards(db)[0]["firmware"] == "1.1"  # the last sync's
    seats = store.results.seats(db)
    assert [(s["game_id"], s["track"], s["name"]) for s in seats[:2]] == [
        (rows[0]["id"], 0, "Ann"),
        (rows[0]["id"], 1, "Bob"),
    ]
    entries = [
        (e["side"], e["points"], e["kind"]) for e in store.results.cribbage_entries(db) if e["game_id"] == rows[0]["id"]
    ]
    assert entries == [(e[0], e[1], e[2]) for e in good(1)["events"]]  # every entry, in order
    assert json.loads(store.results.record(db, rows[0]["id"])["record"])["match"] == 1
    assert store.results.record(db, 999) is None


def test_a_record_kept_apart_counts_for_the_cursor_and_is_kept_once(db):
    bad = [(4, "not JSON (cut off)", '{"match": 4')]
    store.games.add(db, "b0ard", "t", [game(1)], NOW, {}, bad)
    store.games.add(db, "b0ard", "t", [], NOW, {}, bad)  # sent again: the same record, kept once
    store.games.add(db, "b0ard", "t", [], NOW, {}, [(4, "another reason", '{"other": 4}')])  # a different one
    assert store.games.last_seq(db, "b0ard") == 4
    assert [(r["seq"], r["reason"]) for r in store.reports.rejected(db)] == [
        (4, "not JSON (cut off)"),
        (4, "another reason"),
    ]
    assert store.reports.rejected(db, "oth") == []


def test_crashes_are_kept_once_each(db):
    crash = (3, 1200, "Traceback (most recent call last):\nMemoryError: ")
    assert store.reports.store_crashes(db, "b0ard", [crash], NOW) == 1
    assert store.reports.store_crashes(db, "b0ard", [crash, (3, 1200, "another")], NOW) == 1
    assert [(c["boot"], c["uptime_ms"], c["text"]) for c in store.reports.crashes(db, "b0")] == [
        crash,
        (3, 1200, "another"),
    ]


def test_a_sheets_partie_is_taken_out_again_with_its_events_and_seats(db):
    m = PiquetMatch(dealer=0)
    m.game.add(0, 130, "points", 10)
    for _ in range(6):
        m.game.pass_deal(30)
    rec = dict(game_record(m, 0), match=1, game_no=1, boot=1, ticks=9, wall=None, names=["Cy", "Bob"])
    store.games.add(db, "sheet:piquet", "t", [(1, records.check(json.dumps(rec)))], NOW, {})
    assert [json.loads(g["scores"]) for g in store.results.piquet_games(db)] == [[130, 0]]
    store.games.forget_game(db, "sheet:piquet", 1)
    store.games.forget_game(db, "sheet:piquet", 1)  # gone already: nothing to do
    assert store.results.games(db) == []
    assert store.results.seats(db) == []


def test_players_are_one_row_a_name_and_a_rename_keeps_what_the_board_reported(db):
    store.games.add(db, "b0ard", "t", [game(1), game(2, names=("Bob", "Cy"))], NOW, {})
    other = game(1, names=("Ann", "Di"))
    store.games.add(db, "b1", "t", [other], NOW, {})
    assert {p["name"]: (p["games"], p["boards"]) for p in store.players.listing(db)} == {
        "Ann": (2, 2),
        "Bob": (2, 1),
        "Cy": (1, 1),
        "Di": (1, 1),
    }
    assert store.players.player_id(db, "Ann") == store.players.find(db, "Ann")
    assert store.players.find(db, "Nobody") is None
    assert store.players.boards_like(db, "b") == ["b0ard", "b1"]
    assert store.players.boards_like(db, "b0") == ["b0ard"]
    first = store.results.games(db, "b0")[0]["id"]
    assert store.players.game_exists(db, first)
    assert not store.players.game_exists(db, 999)
    assert store.players.seat_track(db, "Eve", 1, game=first) == 1
    assert store.players.history(db, first) == [
        {"track": 1, "name": "Ann", "reported": "Ann"},
        {"track": 2, "name": "Eve", "reported": "Bob"},
    ]
    assert store.players.seat_track(db, "Flo", 0, board="b0ard", match=2) == 1
    assert store.players.merge(db, store.players.find(db, "Di"), "Ann") == 3  # Di is Ann: both tracks of b1's
    names = {p["name"] for p in store.players.listing(db)}
    assert names == {"Ann", "Cy", "Eve", "Flo"}  # Bob (seated over twice) and Di (merged) have no game left


def test_the_sheets_are_kept_and_read_back(db):
    first = store.sheets.save_rubber(db, None, '["A", "B", "C", "D"]', "{}", "[0, 0, 0, 0]", 0, False, NOW)
    assert (
        store.sheets.save_rubber(db, first, '["A", "B", "C", "D"]', '{"v": 1}', "[1, -1, 0, 0]", 1, True, NOW) == first
    )
    assert store.sheets.rubber(db, first)["record"] == '{"v": 1}'
    assert store.sheets.rubber(db, 99) is None
    assert [(r["deals"], r["finished"]) for r in store.sheets.rubbers(db)] == [(1, 1)]
    with db.transaction():
        partie = store.sheets.save_partie(db, None, '["A", "B"]', '{"deals": []}', 0, False, NOW)
    with db.transaction():
        store.sheets.save_partie(db, partie, '["A", "B"]', '{"deals": [[1, 2]]}', 1, False, NOW)
    assert json.loads(store.sheets.partie(db, partie)["record"]) == {"deals": [[1, 2]]}
    assert [r["deals"] for r in store.sheets.parties(db)] == [1]


def test_the_standings_read_only_finished_cribbage_games(db):
    store.games.add(db, "b0ard", "t", [game(1), game(2, 95)], NOW, {})
    store.games.add(db, "other", "t", [game(1, 100, ("Cy", "Di"))], NOW, {})
    rows = store.results.finished_cribbage_seats(db)
    assert [(r["board"], r["track"], r["name"]) for r in rows][:2] == [("b0ard", 0, "Ann"), ("b0ard", 1, "Bob")]
    assert len(rows) == 6
    assert len(store.results.finished_cribbage_seats(db, "oth")) == 2
    assert len(store.results.cribbage_seats(db)) == 6
    assert len(store.results.cribbage_records(db)) == 3


def test_an_engines_error_is_the_tools_one_error_in_one_line(db):
    with pytest.raises(store.DbError) as e:
        db.execute("SELECT 1 FROM nowhere")
    assert "\n" not in str(e.value)
    assert "nowhere" in str(e.value)


def test_a_kept_apart_records_reason_is_said_in_the_readers_language_and_kept_in_english(tmp_path):
    from clirun import cli

    from cribboard import intake, records

    path = str(tmp_path / "g.db")
    db = store.connect(path)
    bad_names = dict(good(2), names=["Ann", "B\u001bb"])
    batch = intake.classify(
        db,
        "b0ard",
        [(1, json.dumps(good(1))), (2, json.dumps(bad_names)), (3, "{cut"), (4, json.dumps(dict(good(1), seq=4)))],
    )
    store.games.add(db, "b0ard", "t", batch.games, NOW, {}, batch.apart)
    store.games.add(db, "b0ard", "t", [], NOW, {}, [(5, "a reason an older cribboard kept", "{}")])
    db.execute("UPDATE rejected SET reason_data = ? WHERE seq = 3", ('{"m": "%(x)s", "v": {"x": "lie"}}',))
    db.close()
    english = {r["seq"]: r["reason"] for r in json.loads(cli("rejected", "--db", path, "--json").stdout)}
    assert english[2] == "names: name 2: no control characters (U+001B)"
    assert english[4] == "the same game as record 1"
    assert "reason_data" not in cli("rejected", "--db", path, "--json").stdout  # JSON: the reason as stored
    table = cli("rejected", "--db", path, env={"COLUMNS": "400", "LANG": "es_ES.UTF-8"}).stdout
    assert "nombres: nombre 2: sin caracteres de control (U+001B)" in table, table
    assert "la misma partida que el registro 1" in table
    assert "a reason an older cribboard kept" in table  # kept without data: its English
    assert english[3] in table
    assert "lie" not in table
    assert isinstance(records.Reason("names: %(problem)s", problem=ValueError("x")).data, dict)
