# A board's games in the database: what is stored of a sync (every game
# once, by board, log and record number), and a sheet's partie taken out
# again. A board's log is named by the id it was made with ('' for a board
# whose firmware gives none): a wiped or replaced board's new log numbers
# its records from 1 again.
import json
from collections.abc import Sequence
from typing import Any

from cribboard.records import CheckedGame
from cribboard.store import players
from cribboard.store.engine import Database, storable
from cribboard.store.reports import digest


def last_seq(db: Database, board: str, log: str = "") -> int:
    """The last record of the board's log that is stored, as a game or kept apart."""
    return max(
        db.value("SELECT MAX(seq) FROM games WHERE board = ? AND log = ?", (board, log)) or 0,
        db.value("SELECT MAX(seq) FROM rejected WHERE board = ? AND log = ?", (board, log)) or 0,
    )


def held(db: Database, board: str, log: str, seqs: Sequence[int]) -> dict[int, tuple[list[Any], list[str]]]:
    """What the database holds under each of these numbers of the board's log: {seq: ([the game's record,
    read back], [the raw texts kept apart])}; a number it holds nothing under is not in it."""
    out: dict[int, tuple[list[Any], list[str]]] = {}
    if not seqs:
        return out
    marks = ", ".join("?" * len(seqs))
    where = "board = ? AND log = ? AND seq IN (%s)" % marks
    for row in db.all("SELECT seq, record FROM games WHERE " + where, (board, log, *seqs)):
        out.setdefault(int(row["seq"]), ([], []))[0].append(json.loads(row["record"]))
    for row in db.all("SELECT seq, raw FROM rejected WHERE " + where, (board, log, *seqs)):
        out.setdefault(int(row["seq"]), ([], []))[1].append(row["raw"])
    return out


def behind(db: Database, board: str, log: str, after: int) -> int | None:
    """Whether the database lacks record `after` of the board's log, which the board was told was stored
    (a restore from an older backup, a disk lost): the number to send the board's records again after (the
    last it holds below, never below the record the board had sent elsewhere before it was paired here:
    club_boards' floor); None if it holds it, or the board's records up to it were never this club's."""
    if after <= 0 or held(db, board, log, [after]):
        return None
    paired = db.one("SELECT floor_log, floor_seq FROM club_boards WHERE board = ?", (board,))
    if paired is None:
        return None
    if paired["floor_seq"] is None:  # paired before the floor was kept: only a log this club has had records of
        if not known_log(db, board, log):
            return None
        floor = 0
    else:
        floor = int(paired["floor_seq"]) if paired["floor_log"] == log else 0
    if after <= floor:
        return None
    below = db.value(
        "SELECT MAX(seq) FROM (SELECT seq FROM games WHERE board = ? AND log = ? AND seq < ? "
        "UNION ALL SELECT seq FROM rejected WHERE board = ? AND log = ? AND seq < ?) AS kept",
        (board, log, after, board, log, after),
    )
    return max(floor, int(below or 0))


def known_log(db: Database, board: str, log: str) -> bool:
    """Whether the board has sent records of this log before."""
    return db.value("SELECT 1 FROM board_logs WHERE board = ? AND log = ?", (board, log)) is not None


def logs_since(db: Database, board: str, since_iso: str) -> int:
    """How many logs the board started (first seen) at since_iso or after."""
    return int(db.value("SELECT COUNT(*) FROM board_logs WHERE board = ? AND first_seen >= ?", (board, since_iso)))


def twin(db: Database, board: str, log: str, seq: int, game: CheckedGame) -> int | None:
    """The seq of the board's stored game that is this one under another
    number (same match, game and entries), in any of its logs, or None."""
    rec = game.record
    for row in db.all(
        "SELECT seq, record FROM games WHERE board = ? AND match_no = ? AND game_no = ? AND NOT (log = ? AND seq = ?)",
        (board, rec["match"], rec["game_no"], log, seq),
    ):
        if json.loads(row["record"]).get("events") == rec["events"]:
            return int(row["seq"])
    return None


def add(
    db: Database,
    board: str,
    firmware: str | None,
    games: list[tuple[int, CheckedGame]],
    now_iso: str,
    walls: dict[int, float | None],
    rejected: Sequence[tuple[int, str, str]] = (),
    log: str = "",
    reported: bool = True,
) -> int:
    """Store the checked games [(seq, CheckedGame)] of one board, and the records
    that failed their checks [(seq, reason, raw)], in one transaction; a
    game already stored (same board, log and seq) is left as it is. Returns
    how many games were new. reported: the board sent them now (its sync's
    time and firmware kept), not a director taking a record it sent before."""
    new = 0
    known: dict[str, int] = {}  # player ids looked up in this batch
    firmware = None if firmware is None else storable(str(firmware))  # what a board says, kept as text
    with db.transaction():
        if reported:
            db.execute(
                "INSERT INTO boards (board, first_sync, last_sync, firmware) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (board) DO UPDATE SET last_sync = excluded.last_sync, firmware = excluded.firmware",
                (board, now_iso, now_iso, firmware),
            )
        if games or rejected:
            db.execute(
                "INSERT INTO board_logs (board, log, first_seen) VALUES (?, ?, ?) ON CONFLICT (board, log) DO NOTHING",
                (board, log, now_iso),
            )
        for seq, game in games:
            rec = game.record
            mr = rec.get("match_result") or {}
            game_id = db.value(
                "INSERT INTO games (board, log, seq, kind, match_no, game_no, players, target, scheme, best_of, "
                "first_to, winner, skunk, points, scores, match_winner, ended_at, record, synced_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (board, log, seq) DO NOTHING RETURNING id",
                (
                    board,
                    log,
                    seq,
                    game.kind,
                    rec["match"],
                    rec["game_no"],
                    rec["players"],
                    rec["target"],
                    rec["scheme"],
                    rec.get("best_of"),
                    rec.get("first_to"),
                    rec["winner"],
                    rec["skunk"],
                    rec["points"],
                    json.dumps(game.scores),
                    mr.get("winner"),
                    walls.get(seq),
                    json.dumps(rec),
                    now_iso,
                ),
            )
            if game_id is None:
                continue
            new += 1
            sides = len(game.scores)
            db.executemany(
                "INSERT INTO events (game_id, n, seat, side, points, kind, ticks) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(game_id, n, e[0], e[0] % sides, e[1], e[2], e[3]) for n, e in enumerate(rec["events"])],
            )
            players.seat(db, game_id, game.names, known=known)
        for seq, reason, text in rejected:
            raw = storable(text)
            data = getattr(reason, "data", None)  # (records.Reason: to say it in the reader's language)
            db.execute(
                "INSERT INTO rejected (board, log, seq, digest, reason, reason_data, raw, received_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (board, log, seq, digest) DO NOTHING",
                (
                    board,
                    log,
                    seq,
                    digest(raw),
                    storable(reason),
                    None if data is None else storable(json.dumps(data)),
                    raw,
                    now_iso,
                ),
            )
    return new


def forget_game(db: Database, board: str, seq: int) -> None:
    """Remove a stored game with its events and seats (a sheet's partie,
    stored again after an undo or a fix; a board's games are never removed)."""
    with db.transaction():
        game_id = db.value("SELECT id FROM games WHERE board = ? AND log = '' AND seq = ?", (board, seq))
        if game_id is None:
            return
        for table in ("events", "game_players"):
            db.execute("DELETE FROM %s WHERE game_id = ?" % table, (game_id,))
        db.execute("DELETE FROM games WHERE id = ?", (game_id,))
