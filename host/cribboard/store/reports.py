# What a board reports besides its games: records that failed the checks
# (kept apart, with why) and its crash log.
import hashlib
from collections.abc import Sequence

from cribboard.store.engine import Database, Row


def rejected(db: Database, board: str | None = None) -> list[Row]:
    """The records kept apart, oldest first."""
    return _of_board(db, "SELECT id, board, seq, reason, reason_data, raw, received_at FROM rejected", board)


def apart(db: Database, ident: int) -> Row | None:
    """The record kept apart with this id, or None (none, or taken already)."""
    return db.one("SELECT id, board, log, seq, reason, raw, received_at FROM rejected WHERE id = ?", (ident,))


def forget_apart(db: Database, ident: int) -> None:
    """Out of the list of records kept apart (taken into the games)."""
    db.execute("DELETE FROM rejected WHERE id = ?", (ident,))


def store_crashes(db: Database, board: str, crashes: Sequence[tuple[int, int, str]], now_iso: str) -> int:
    """Keep a board's crash log [(boot, uptime_ms, text)]; a crash already
    kept is not kept twice. Returns how many were new."""
    new = 0
    with db.transaction():
        for boot, uptime, text in crashes:
            if (
                db.value(
                    "INSERT INTO crashes (board, boot, uptime_ms, digest, text, received_at) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (board, boot, uptime_ms, digest) DO NOTHING "
                    "RETURNING id",
                    (board, boot, uptime, digest(text), text, now_iso),
                )
                is not None
            ):
                new += 1
    return new


def crashes(db: Database, board: str | None = None) -> list[Row]:
    """The crashes boards reported, oldest first."""
    return _of_board(db, "SELECT id, board, boot, uptime_ms, text, received_at FROM crashes", board)


def _of_board(db: Database, select: str, board: str | None) -> list[Row]:
    """The rows of a select, oldest first, of boards whose id starts with board (all if None)."""
    if board:
        return db.all(select + " WHERE board LIKE ? ORDER BY id", (board + "%",))
    return db.all(select + " ORDER BY id")


def digest(text: str) -> str:
    """What tells two texts of one board and number apart in a unique key."""
    return hashlib.sha256(text.encode()).hexdigest()
