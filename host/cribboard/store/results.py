# What the listings, statistics and standings read: the stored games with
# their seats, events and records, one named query each.
from typing import Any

from cribboard.store.engine import Database, Row


def seats(db: Database) -> list[Row]:
    """Every game's seats in order: game_id, track, the player's name, the name the board reported."""
    return db.all(
        "SELECT gp.game_id, gp.track, p.name, gp.reported FROM game_players gp JOIN players p "
        "ON p.id = gp.player_id ORDER BY gp.game_id, gp.track"
    )


def games(db: Database, board: str | None = None) -> list[Row]:
    """The stored games (of the boards whose id starts with board), by board and record number."""
    sql = (
        "SELECT id, board, seq, kind, match_no, game_no, players, target, scheme, winner, skunk, points, "
        "scores, match_winner, ended_at FROM games"
    )
    args: tuple[Any, ...] = ()
    if board:
        sql += " WHERE board LIKE ?"
        args = (board + "%",)
    return db.all(sql + " ORDER BY board, seq", args)


def record(db: Database, game_id: int) -> Row | None:
    """One game's record and board, or None."""
    return db.one("SELECT record, board FROM games WHERE id = ?", (game_id,))


def cribbage_seats(db: Database) -> list[Row]:
    """A row a seat of every cribbage game: winner, skunk, match_winner, track, name."""
    return db.all(
        "SELECT g.winner, g.skunk, g.match_winner, gp.track, p.name FROM games g "
        "JOIN game_players gp ON gp.game_id = g.id JOIN players p ON p.id = gp.player_id "
        "WHERE g.kind = 'cribbage'"
    )


def cribbage_entries(db: Database) -> list[Row]:
    """Every scoring entry of the cribbage games, in order, with its game's target and the side's player."""
    return db.all(
        "SELECT e.game_id, e.side, e.kind, e.points, g.target, p.name FROM events e "
        "JOIN games g ON g.id = e.game_id "
        "JOIN game_players gp ON gp.game_id = e.game_id AND gp.track = e.side "
        "JOIN players p ON p.id = gp.player_id "
        "WHERE e.kind != 'deal' AND g.kind = 'cribbage' ORDER BY e.game_id, e.n"
    )


def piquet_games(db: Database) -> list[Row]:
    return db.all("SELECT id, winner, scores FROM games WHERE kind = 'piquet' ORDER BY id")


def cribbage_records(db: Database) -> list[Row]:
    return db.all("SELECT id, record FROM games WHERE kind = 'cribbage' ORDER BY id")


def boards(db: Database) -> list[Row]:
    """Each board: first and last sync, firmware, games, matches and skunks stored."""
    return db.all(
        "SELECT b.board, b.first_sync, b.last_sync, b.firmware, COUNT(g.id) AS games, "
        "COUNT(DISTINCT g.match_no) AS matches, "
        "SUM(CASE WHEN g.skunk > 0 THEN 1 ELSE 0 END) AS skunks "
        "FROM boards b LEFT JOIN games g ON g.board = b.board GROUP BY b.board ORDER BY b.board"
    )


def finished_cribbage_seats(db: Database, board: str | None = None) -> list[Row]:
    """A row a seat of every finished cribbage game (of the boards whose id starts with board), by game and track."""
    sql = (
        "SELECT g.id, g.board, g.target, g.scores, g.winner, g.skunk, g.ended_at, g.synced_at, gp.track, "
        "p.name FROM games g JOIN game_players gp ON gp.game_id = g.id JOIN players p ON p.id = gp.player_id "
        "WHERE g.kind = 'cribbage' AND g.winner IS NOT NULL"
    )
    args: list[Any] = []
    if board:
        sql += " AND g.board LIKE ?"
        args.append(board + "%")
    return db.all(sql + " ORDER BY g.id, gp.track", args)
