# A club's paired boards: the key each signs its requests with (given once
# over USB by `cribboard pair`; in club_keys, apart from everything a reader
# of results reads), whether it was revoked, and the counter of the last
# request the server took from it, so no request is taken twice.
from typing import Any

from cribboard.store.engine import Database, Row


def pair(db: Database, board: str, key: bytes, now: str, floor: tuple[str, int] = ("", 0)) -> Row | None:
    """The board signs with key from now on (a board paired again gets a new
    key, and its counter starts again). floor: (its log, the last record it
    had sent elsewhere), which no heal asks it to send again. Returns its
    pairing before, if any, for put_back."""
    with db.transaction():
        before = db.one(
            "SELECT c.board, k.key, c.paired_at, c.revoked_at, c.boot, c.n, c.floor_log, c.floor_seq FROM "
            "club_boards c LEFT JOIN club_keys k ON k.board = c.board WHERE c.board = ?",
            (board,),
        )
        db.execute(
            "INSERT INTO club_boards (board, paired_at, revoked_at, boot, n, floor_log, floor_seq) "
            "VALUES (?, ?, NULL, 0, 0, ?, ?) "
            "ON CONFLICT (board) DO UPDATE SET paired_at = excluded.paired_at, revoked_at = NULL, boot = 0, "
            "n = 0, floor_log = excluded.floor_log, floor_seq = excluded.floor_seq",
            (board, now, *floor),
        )
        _set_key(db, board, key)
    return before


def rotate(db: Database, board: str, key: bytes) -> Row | None:
    """A new key for a paired board, its counter started again (no request signed with the old key is
    taken, so none taken before can be again; and a counter a leaked key pushed to the top is mended);
    returns its pairing before, for put_back; None (nothing changed) for a board not paired or revoked."""
    with db.transaction():
        before = db.one(
            "SELECT c.board, k.key, c.paired_at, c.revoked_at, c.boot, c.n, c.floor_log, c.floor_seq FROM "
            "club_boards c LEFT JOIN club_keys k ON k.board = c.board WHERE c.board = ? AND c.revoked_at IS NULL",
            (board,),
        )
        if before is not None:
            _set_key(db, board, key)
            db.execute("UPDATE club_boards SET boot = 0, n = 0 WHERE board = ?", (board,))
    return before


def _set_key(db: Database, board: str, key: bytes) -> None:
    db.execute(
        "INSERT INTO club_keys (board, key) VALUES (?, ?) ON CONFLICT (board) DO UPDATE SET key = excluded.key",
        (board, key),
    )


def put_back(db: Database, board: str, before: Row | None) -> None:
    """Undo a pairing that did not work: the board's pairing as it was (none, or its old key and counter),
    its row changed in place (what refers to it, its live state, stays)."""
    with db.transaction():
        db.execute("DELETE FROM club_keys WHERE board = ?", (board,))
        if before is None:
            db.execute("DELETE FROM club_live WHERE board = ?", (board,))
            db.execute("DELETE FROM club_boards WHERE board = ?", (board,))
            return
        db.execute(
            "UPDATE club_boards SET paired_at = ?, revoked_at = ?, boot = ?, n = ?, floor_log = ?, floor_seq = ? "
            "WHERE board = ?",
            (
                before["paired_at"],
                before["revoked_at"],
                before["boot"],
                before["n"],
                before.get("floor_log"),
                before.get("floor_seq"),
                board,
            ),
        )
        if before["key"] is not None:
            _set_key(db, board, bytes(before["key"]))


def unpair(db: Database, board: str, now: str) -> tuple[str, bool] | None:
    """Revoke the board's key: (when it is revoked, whether by this call: False if it was before); None
    for a board never paired."""
    with db.transaction():
        if (
            db.execute(
                "UPDATE club_boards SET revoked_at = ? WHERE board = ? AND revoked_at IS NULL", (now, board)
            ).rowcount
            == 1
        ):
            return now, True
        before = db.value("SELECT revoked_at FROM club_boards WHERE board = ?", (board,))
        return None if before is None else (before, False)


_TAKE = (
    "UPDATE club_boards SET boot = ?, n = ?, last_request_at = ? WHERE board = ? "
    "AND revoked_at IS NULL AND (boot < ? OR (boot = ? AND n < ?))"
)
_KEYED = " AND EXISTS (SELECT 1 FROM club_keys WHERE board = ? AND key = ?)"  # the key is still the board's


def _taking(board: str, boot: int, n: int, now: str, key: bytes | None) -> tuple[str, tuple[Any, ...]]:
    """The statement that takes (boot, n) as the board's last counter, and its arguments (given key: only
    while that is the board's key)."""
    args: tuple[Any, ...] = (boot, n, now, board, boot, boot, n)
    return (_TAKE, args) if key is None else (_TAKE + _KEYED, args + (board, key))


def key_of(db: Database, board: str) -> Row | None:
    """The board's key (bytes), whether it is revoked (revoked_at) and its last request's counter (last:
    (boot, n)), in one read: what each of a board's requests is checked against. None for a board never
    paired. On PostgreSQL only the server's role may read club_keys."""
    row = db.one(
        "SELECT k.key, c.revoked_at, c.boot, c.n FROM club_boards c JOIN club_keys k ON k.board = c.board "
        "WHERE c.board = ?",
        (board,),
    )
    if row is None:
        return None
    return {"key": bytes(row["key"]), "revoked_at": row["revoked_at"], "last": (int(row["boot"]), int(row["n"]))}


def keys(db: Database) -> dict[str, bytes]:
    """Every paired board's key, but the revoked ones' (the server's role only, as key_of)."""
    rows = db.all(
        "SELECT c.board, k.key FROM club_boards c JOIN club_keys k ON k.board = c.board WHERE c.revoked_at IS NULL"
    )
    return {row["board"]: bytes(row["key"]) for row in rows}


def last_counter(db: Database, board: str) -> tuple[int, int] | None:
    """The (boot, n) of the board's last request taken; None for a board never paired."""
    row = db.one("SELECT boot, n FROM club_boards WHERE board = ?", (board,))
    return None if row is None else (int(row["boot"]), int(row["n"]))


def take_counter(db: Database, board: str, boot: int, n: int, now: str, key: bytes | None = None) -> bool:
    """Record (boot, n) as the board's last request, taken at now, if it comes after the
    last one taken (and, given key, if that is still the board's key); False for a replay or a request out
    of order (or a key rotated since). Atomic: two requests with one counter cannot both be taken."""
    with db.transaction():
        return db.execute(*_taking(board, boot, n, now, key)).rowcount == 1


def boards(db: Database) -> list[dict[str, Any]]:
    """The paired boards, with their last request's time and counter, the games stored of each, the records
    kept apart (cribboard rejected lists them), the logs it sent records of (a new one: a wipe, a
    replacement), the records it sent again to a club that had lost them (sent_again) and since when it is
    sending them (behind_since: none once it is whole again), never the key."""
    return db.all(
        "SELECT c.board, c.paired_at, c.revoked_at, c.last_request_at, c.boot, c.n, COUNT(g.id) AS games, "
        "(SELECT COUNT(*) FROM rejected r WHERE r.board = c.board) AS rejected, "
        "(SELECT COUNT(*) FROM board_logs l WHERE l.board = c.board) AS logs, "
        "(SELECT COALESCE(SUM(h.back), 0) FROM board_heals h WHERE h.board = c.board) AS sent_again, "
        "(SELECT MIN(h.noticed_at) FROM board_heals h WHERE h.board = c.board AND h.whole_at IS NULL) "
        "AS behind_since "
        "FROM club_boards c LEFT JOIN games g ON g.board = c.board "
        "GROUP BY c.board, c.paired_at, c.revoked_at, c.last_request_at, c.boot, c.n ORDER BY c.board"
    )


def take_live(
    db: Database, board: str, boot: int, n: int, now: str, state: str, key: bytes | None = None
) -> int | None:
    """take_counter and keep_live together, atomic: the live state's version now, or None if the counter was
    not taken (a replay, a request out of order, or, given key, a key no longer the board's: nothing kept).
    On PostgreSQL one statement (one round trip, no transaction to begin and commit); SQLite's are in this
    process, taken in a transaction. With key it is the request's one statement: the checks of the key it
    was signed with (kept in memory) are made again here, with the write."""
    if db.engine == "postgresql":
        take, args = _taking(board, boot, n, now, key)
        return db.value(
            "WITH taken AS (" + take + " RETURNING board) "
            "INSERT INTO club_live (board, version, state) SELECT board, 1, ? FROM taken ON CONFLICT (board) "
            "DO UPDATE SET version = club_live.version + 1, state = excluded.state RETURNING version",
            args + (state,),
        )
    with db.transaction():
        if not take_counter(db, board, boot, n, now, key):
            return None
        return keep_live(db, board, state)


def keep_live(db: Database, board: str, state: str) -> int:
    """Keep the board's live state (its JSON); its version now. Taken after the request's counter, in its
    transaction, so the versions follow the order the board's requests were taken in."""
    return int(
        db.value(
            "INSERT INTO club_live (board, version, state) VALUES (?, 1, ?) ON CONFLICT (board) "
            "DO UPDATE SET version = club_live.version + 1, state = excluded.state RETURNING version",
            (board, state),
        )
    )


def live_versions(db: Database) -> dict[str, int]:
    """Each board's live state's version: what a server polls to learn which boards another one heard."""
    return {r["board"]: int(r["version"]) for r in db.all("SELECT board, version FROM club_live")}


def live_states(db: Database, boards: list[str]) -> list[Row]:
    """The live states of these boards: board, version, state (JSON)."""
    if not boards:
        return []
    marks = ", ".join("?" for _ in boards)
    return db.all("SELECT board, version, state FROM club_live WHERE board IN (%s) ORDER BY board" % marks, boards)


def heal_noticed(db: Database, board: str, log: str, lacked: int, resend: int, now: str) -> None:
    """The board found the club lacking its record `lacked` (of log), and was asked to send again after
    `resend` (kept once: the same lack noticed again is the same heal)."""
    db.execute(
        "INSERT INTO board_heals (board, log, lacked, resend, noticed_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (board, log, lacked) DO NOTHING",
        (board, log, lacked, resend, now),
    )


def open_heals(db: Database) -> list[Row]:
    """The heals under way: the boards sending again what the club lacks (board, log, lacked, resend)."""
    return db.all("SELECT board, log, lacked, resend FROM board_heals WHERE whole_at IS NULL")


def heal_back(db: Database, board: str, log: str, lacked: int, back: int, whole: bool, now: str) -> None:
    """`back` more of a heal's records stored; whole: all of them (it is over)."""
    db.execute(
        "UPDATE board_heals SET back = back + ?, whole_at = ? WHERE board = ? AND log = ? AND lacked = ? "
        "AND whole_at IS NULL",
        (back, now if whole else None, board, log, lacked),
    )
