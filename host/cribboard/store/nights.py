# Club nights in the database: the night, its players (who joined late, who
# left), its draw round by round, the results the director entered (an
# undone one is kept, marked: the history), and the club's settings. The
# boards' games are not copied here: a night reads the games stored after
# it began at its tables (cribboard.night.results files them).
import json
from collections.abc import Sequence
from typing import Any

from cribboard.event.tables import Seat
from cribboard.store.engine import Database, Row

DrawnGame = tuple[str | None, int, int | None]  # (table or None for a bye, first, second or None: players' numbers)


def begin(
    db: Database,
    name: str,
    seed: int,
    rounds: int,
    scheme: str,
    tables: Sequence[Seat],
    players: Sequence[str],
    drawn: Sequence[Sequence[DrawnGame]],
    now_iso: str,
    pairing_games: int = 1,
) -> int:
    """A new night with its tables (each with its board from round 1), players (numbered from 1 in this
    order: the draw names them by number) and draw; its id."""
    with db.transaction():
        after = db.value("SELECT MAX(id) FROM games") or 0
        night = db.value(
            "INSERT INTO nights (name, seed, rounds, scheme, tables, after_game, started_at, pairing_games) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (name, seed, rounds, scheme, json.dumps([t for t, _b in tables]), after, now_iso, pairing_games),
        )
        db.executemany(
            "INSERT INTO night_boards (night_id, table_name, from_round, board) VALUES (?, ?, 1, ?)",
            [(night, t, b) for t, b in tables],
        )
        db.executemany(
            "INSERT INTO night_players (night_id, name, n, joined) VALUES (?, ?, ?, 1)",
            [(night, p, n) for n, p in enumerate(players, 1)],
        )
        _put_rounds(db, night, 1, drawn)
    return int(night)


def _put_rounds(db: Database, night: int, first_round: int, drawn: Sequence[Sequence[DrawnGame]]) -> None:
    db.executemany(
        "INSERT INTO night_draw (night_id, round, n, table_name, first, second) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (night, first_round + r, n, board, first, second)
            for r, games in enumerate(drawn)
            for n, (board, first, second) in enumerate(games)
        ],
    )


def redrawn(
    db: Database,
    night: int,
    from_round: int,
    drawn: Sequence[Sequence[DrawnGame]],
    joined: Sequence[tuple[int, str]] = (),
    left: Sequence[int] = (),
    added_tables: Sequence[str] = (),
) -> None:
    """The rounds from from_round on replaced, as players join (numbered: a number the night has is one who
    left coming back) or leave before it, and tables are added, without boards, for more of them; in one
    transaction."""
    with db.transaction():
        if added_tables:
            tables = json.loads(db.value("SELECT tables FROM nights WHERE id = ?", (night,)))
            db.execute("UPDATE nights SET tables = ? WHERE id = ?", (json.dumps(tables + list(added_tables)), night))
            db.executemany(
                "INSERT INTO night_boards (night_id, table_name, from_round, board) VALUES (?, ?, ?, NULL)",
                [(night, t, from_round) for t in added_tables],
            )
        db.execute("DELETE FROM night_draw WHERE night_id = ? AND round >= ?", (night, from_round))
        _put_rounds(db, night, from_round, drawn)
        for number, name in joined:
            db.execute(
                "INSERT INTO night_players (night_id, name, n, joined) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (night_id, n) DO UPDATE SET joined = excluded.joined, left_before = NULL",
                (night, name, number, from_round),
            )
        for number in left:
            db.execute(
                "UPDATE night_players SET left_before = ? WHERE night_id = ? AND n = ?", (from_round, night, number)
            )


def night(db: Database, night_id: int | None = None) -> Row | None:
    """A night by id; without one, the latest (the one under way, if any)."""
    if night_id is not None:
        return db.one("SELECT * FROM nights WHERE id = ?", (night_id,))
    return db.one("SELECT * FROM nights ORDER BY ended_at IS NOT NULL, id DESC LIMIT 1")


def listing(db: Database) -> list[Row]:
    return db.all(
        "SELECT n.id, n.name, n.rounds, n.started_at, n.ended_at, COUNT(p.n) AS players "
        "FROM nights n LEFT JOIN night_players p ON p.night_id = n.id "
        "GROUP BY n.id, n.name, n.rounds, n.started_at, n.ended_at ORDER BY n.id"
    )


def players(db: Database, night: int) -> list[Row]:
    """The night's players: each one's number (n), name, the round joined and the round left before."""
    return db.all("SELECT n, name, joined, left_before FROM night_players WHERE night_id = ? ORDER BY n", (night,))


def drawn(db: Database, night: int) -> list[list[DrawnGame]]:
    """The draw, round 1 first."""
    rounds: list[list[DrawnGame]] = []
    for r in db.all(
        "SELECT round, table_name, first, second FROM night_draw WHERE night_id = ? ORDER BY round, n", (night,)
    ):
        while len(rounds) < r["round"]:
            rounds.append([])
        rounds[r["round"] - 1].append((r["table_name"], r["first"], r["second"]))
    return rounds


def boards(db: Database, night: int) -> list[Row]:
    """Which board was at which table from which round on (a None board: none), table and round in order."""
    return db.all(
        "SELECT table_name, from_round, board FROM night_boards WHERE night_id = ? ORDER BY table_name, from_round",
        (night,),
    )


def set_boards(db: Database, night: int, from_round: int, seats: Sequence[Seat]) -> None:
    """Boards put at tables (or taken away: None) from a round on, together, in one transaction."""
    with db.transaction():
        db.executemany(
            "INSERT INTO night_boards (night_id, table_name, from_round, board) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (night_id, table_name, from_round) DO UPDATE SET board = excluded.board",
            [(night, table, from_round, board) for table, board in seats],
        )


def enter(
    db: Database,
    night: int,
    round_no: int,
    players: tuple[int, int],
    scores: tuple[int, int],
    target: int,
    game_id: int | None,
    now_iso: str,
) -> int:
    return int(
        db.value(
            "INSERT INTO night_results (night_id, round, first, second, first_score, second_score, target, "
            "game_id, entered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (night, round_no, players[0], players[1], scores[0], scores[1], target, game_id, now_iso),
        )
    )


def undo(db: Database, night: int, now_iso: str) -> Row | None:
    """The last result entered, and not undone, marked undone; it, or None if there is none."""
    with db.transaction():
        last = db.one(
            "SELECT * FROM night_results WHERE night_id = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1", (night,)
        )
        if last is not None:
            db.execute("UPDATE night_results SET undone_at = ? WHERE id = ?", (now_iso, last["id"]))
    return last


def entries(db: Database, night: int, with_undone: bool = False) -> list[Row]:
    """The results entered, oldest first (the ones undone too, for the history)."""
    where = "" if with_undone else " AND undone_at IS NULL"
    return db.all("SELECT * FROM night_results WHERE night_id = ?%s ORDER BY id" % where, (night,))


def board_games(db: Database, after_game: int, boards: Sequence[str], until_game: int | None = None) -> list[Row]:
    """A row a seat of every finished cribbage game stored after after_game at these boards, by game and track."""
    if not boards:
        return []
    sql = (
        "SELECT g.id, g.board, g.target, g.scores, g.winner, g.skunk, gp.track, p.name "
        "FROM games g JOIN game_players gp ON gp.game_id = g.id JOIN players p ON p.id = gp.player_id "
        "WHERE g.kind = 'cribbage' AND g.winner IS NOT NULL AND g.id > ? AND g.board IN (%s)"
        % ", ".join("?" for _b in boards)
    )
    args: list[Any] = [after_game, *boards]
    if until_game is not None:
        sql += " AND g.id <= ?"
        args.append(until_game)
    return db.all(sql + " ORDER BY g.id, gp.track", args)


def end(db: Database, night: int, now_iso: str) -> None:
    """The night over: the games stored until now are its last."""
    with db.transaction():
        last = db.value("SELECT MAX(id) FROM games") or 0
        db.execute(
            "UPDATE nights SET ended_at = ?, until_game = ? WHERE id = ? AND ended_at IS NULL", (now_iso, last, night)
        )


def reopen(db: Database, night: int) -> None:
    """The night's end undone: the games stored since are its again, as they fit."""
    with db.transaction():
        db.execute("UPDATE nights SET ended_at = NULL, until_game = NULL WHERE id = ?", (night,))


def last_ended(db: Database) -> int | None:
    """The night ended last (the one a reopen takes back, if none is named)."""
    return db.value("SELECT id FROM nights WHERE ended_at IS NOT NULL ORDER BY ended_at DESC, id DESC LIMIT 1")


def begun_after(db: Database, night: int) -> int | None:
    """The first night begun after this one (a tournament's qualifying is one), if any."""
    return db.value("SELECT MIN(id) FROM nights WHERE id > ?", (night,))


def setting(db: Database, name: str) -> str | None:
    return db.value("SELECT value FROM settings WHERE name = ?", (name,))


def set_setting(db: Database, name: str, value: str) -> None:
    with db.transaction():  # (a writer another holds up is waited for, saying so: Database._begin_sqlite)
        db.execute(
            "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (name, value),
        )


def known_boards(db: Database) -> list[str]:
    """Every board this database knows (synced, or paired with the club)."""
    return [r["board"] for r in db.all("SELECT board FROM boards UNION SELECT board FROM club_boards ORDER BY board")]


def club_boards(db: Database) -> list[str]:
    """The boards paired with the club and not revoked, in the order they were paired."""
    return [
        r["board"] for r in db.all("SELECT board FROM club_boards WHERE revoked_at IS NULL ORDER BY paired_at, board")
    ]
