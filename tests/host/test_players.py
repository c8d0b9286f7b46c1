# Players: names sent to a board over the link, carried in its records,
# stored as players of their own, fixed after a sync with the board's report
# kept; and games from before players existed seated as "Track N".
import json
import sqlite3

from clirun import cli
from simboard import Board
from test_records import LyingLink, good

from cribboard import store
from cribboard.cli import player_names
from cribboard.link import sync
from cribboard.reports import stats


def test_names_sent_to_the_board_come_back_in_its_records_and_name_the_games(tmp_path, db_url):
    board = Board(tmp_path / "flash")
    try:
        done = cli("players", "--port", board.port, "José María", "陈 Wei")
        assert done.returncode == 0 and "José María, 陈 Wei" in done.stderr, done.stderr
        bad = cli("players", "--port", board.port, "Ann", "x" * 25)
        assert bad.returncode == 2
        assert "too long" in bad.stderr
        spanish = cli("--lang", "es", "players", "--port", board.port, "Ann")  # one name for two tracks
        assert spanish.returncode == 1, spanish.stderr
        assert "el tablero dijo: hacen falta 2 nombres, uno por pista" in spanish.stderr, spanish.stderr
        assert "names are needed" not in spanish.stderr  # the board's refusal, said in the reader's language
        board.enter("P1", 29)  # a game to 121 on the buttons
        for _ in range(4):
            board.enter("P1", 29)
        board.enter("P1", 5)
        board.press("OK")  # confirm the win: the board logs the game
        assert json.loads(cli("sync", "--port", board.port, "--db", db_url, "--json").stdout)["new_games"] == 1
    finally:
        board.stop()
    (game,) = json.loads(cli("matches", "--db", db_url, "--json").stdout)
    assert game["names"] == ["José María", "陈 Wei"]
    assert game["winner"] == "José María"
    listed = {p["name"]: p["games"] for p in json.loads(cli("players", "list", "--db", db_url, "--json").stdout)}
    assert listed == {"José María": 1, "陈 Wei": 1}


def test_a_board_without_names_is_fixed_after_the_sync_and_the_report_is_kept(db_url):
    conn = store.connect(db_url)
    bodies = [(s, json.dumps(good(s, loser=50 + s))) for s in (1, 2, 3)]
    bodies.append((4, json.dumps(good(4, names=["Ann", "Cy"]))))
    sync.sync(LyingLink(bodies, board="b0ard"), conn)
    sync.sync(LyingLink([(1, json.dumps(good(1)))], board="other"), conn)
    ids = [g["id"] for g in stats.games(conn, "b0ard")]
    assert [g["names"] for g in stats.games(conn, "b0ard")][:1] == [["Track 1", "Track 2"]]
    assert player_names.reassign(conn, "Ann", 1, board="b0a") == 4  # every game of that board, track 1
    assert player_names.reassign(conn, "Bob", 2, board="b0ard", match=2) == 1  # one match of it
    assert player_names.reassign(conn, "Di", 2, game=ids[0]) == 1  # one game
    assert [g["names"] for g in stats.games(conn, "b0ard")] == [
        ["Ann", "Di"],
        ["Ann", "Bob"],
        ["Ann", "Track 2"],
        ["Ann", "Cy"],
    ]
    assert store.players.history(conn, ids[0]) == [
        {"track": 1, "name": "Ann", "reported": "Track 1"},
        {"track": 2, "name": "Di", "reported": "Track 2"},
    ]
    conn.close()
    exported = json.loads(cli("export", "--format", "json", "--db", db_url).stdout)
    assert (exported[0]["names"], exported[0]["reported"]) == (["Ann", "Di"], ["Track 1", "Track 2"])
    csv_lines = cli("export", "--db", db_url).stdout.splitlines()
    header = csv_lines[0].split(",")
    first = dict(zip(header, csv_lines[1].split(",")))
    assert (first["names"], first["reported"]) == ("Ann | Di", "Track 1 | Track 2")
    conn = store.connect(db_url)
    assert [g["names"] for g in stats.games(conn, "other")] == [["Track 1", "Track 2"]]  # another board
    assert player_names.rename(conn, "Di", "Bob") == 2  # two names for one person become one
    assert {p["name"]: p["games"] for p in store.players.listing(conn)} == {
        "Ann": 4,
        "Bob": 2,
        "Cy": 1,
        "Track 1": 1,
        "Track 2": 2,
    }
    wins = {p["player"]: p["wins"] for p in stats.player_stats(conn)}
    assert wins["Ann"] == 4
    assert wins["Track 1"] == 1


def test_renames_that_cannot_be_done_say_why_and_change_nothing(tmp_path):
    url = str(tmp_path / "r.sqlite3")
    conn = store.connect(url)
    sync.sync(LyingLink([(1, json.dumps(good(1)))], board="b0ard"), conn)
    sync.sync(LyingLink([(1, json.dumps(good(1)))], board="b0b"), conn)
    conn.close()
    for args, code, why in (
        (["Ann", "--track", "1", "--board", "b0"], 2, "more than one board"),
        (["Ann", "--track", "1", "--board", "zz"], 2, "no board matches"),
        (["Ann", "--track", "1", "--game", "99"], 2, "no game 99"),
        (["Ann", "--track", "3", "--board", "b0a"], 2, "no game has a track 3"),
        (["Ann", "--track", "1"], 2, "say which games"),
        (["Ann", "--board", "b0a"], 2, "say which track"),
        (["Ann", "--match", "1", "--track", "1"], 2, "--match needs --board"),
        (["A\tB", "--track", "1", "--board", "b0a"], 2, "no control characters"),
        (["Ann", "--player", "Nobody"], 2, "no player is called 'Nobody'"),
    ):
        done = cli("players", "rename", *args, "--db", url)
        assert done.returncode == code and why in done.stderr, (args, done.stderr)
    assert sorted(p["name"] for p in json.loads(cli("players", "list", "--db", url, "--json").stdout)) == [
        "Track 1",
        "Track 2",
    ]


def test_games_synced_before_players_existed_are_seated_and_piquet_is_told_apart(tmp_path):
    path = tmp_path / "v2.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(";\n".join(str(s) for v in (1, 2) for s in store.migrations.statements(v, "sqlite")))
    conn.execute("INSERT INTO boards VALUES ('b1', 'x', 'x', '0.1')")
    for seq, (players_n, kind) in enumerate(((2, "cribbage"), (3, "cribbage"), (2, "piquet")), 1):
        conn.execute(
            "INSERT INTO games (board, seq, match_no, game_no, players, target, scheme, winner, skunk, "
            "scores, record, synced_at) VALUES ('b1', ?, 1, ?, ?, 121, 'acc', 0, 0, '[121, 80]', ?, 'x')",
            (seq, seq, players_n, json.dumps({"game": kind})),
        )
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    new = store.connect(str(path))
    assert [g["names"] for g in stats.games(new)] == [
        ["Track 1", "Track 2"],
        ["Track 1", "Track 2", "Track 3"],
        ["Track 1", "Track 2"],
    ]
    assert [g["kind"] for g in stats.games(new)] == ["cribbage", "cribbage", "piquet"]
    assert {p["player"]: p["games"] for p in stats.player_stats(new)} == {"Track 1": 2, "Track 2": 2, "Track 3": 1}


def test_a_board_on_protocol_1_is_told_to_update_before_it_takes_names():
    import pytest

    from cribboard.link.client import BoardLink
    from cribboard.link.lines import LinkError

    link = BoardLink.__new__(BoardLink)  # no port: a board that said HELLO with proto=1
    link.proto = 1
    with pytest.raises(LinkError, match="too old to take names: update it with `cribboard flash`"):
        link.set_names(["Ann", "Bob"])


def test_an_erc_line_that_lies_is_said_as_the_boards_english():
    from cribboard.link.lines import core_error
    from cribboard.text.error_words import said
    from cribcore import CoreError

    assert said(core_error('[502, [2, {"e": [507, [27]]}]]')) == "name 2: no control characters (U+001B)"
    assert core_error('[502, [2, {"e": [507, [27]]}]]').args[1][1].args == (507, (27,))
    for lie in (
        "[501]",
        "{}",
        "[501, 2]",
        "not json",
        '["501", []]',
        "[" * 5000,
        '[1, [{"e": [1, [{"e": [1, [{"e": [1, [{"e": [1, []]}]]}]]}]]}]]',
    ):
        assert core_error(lie) is None, lie
    assert said(CoreError(501, ("x", "y"))) == str(CoreError(501, ("x", "y")))  # values that do not fit
