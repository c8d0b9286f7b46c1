# Sync: pull finished games from a board into the database. Records are
# stored and committed before they are acknowledged, and stored by (board,
# log, seq) once only, so a sync cut off at any moment is simply run again.
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any, NamedTuple

from cribboard import intake, store
from cribboard.intake import BOARD_ID, wall_time
from cribboard.link.client import BoardLink
from cribboard.link.lines import Garbled, LinkError
from cribboard.store import Database
from cribboard.text.i18n import _

RETRIES = 5


class Synced(NamedTuple):
    new: int  # games stored
    rejected: int  # records kept apart (records.check)
    board: str
    crashes: int = 0  # crashes the board had logged, stored and cleared from it


def board_of(hello: dict[str, Any]) -> str:
    """The board's id its HELLO carries; LinkError if none usable (a sync's and a pairing's first check)."""
    board = hello.get("board")
    if not isinstance(board, str) or not BOARD_ID.fullmatch(board):
        raise LinkError(_("the board's HELLO carries no usable board id (%s)") % ascii(board)[:40])
    return board


def sync(
    link: BoardLink,
    conn: Database,
    progress: Callable[[int, int], None] | None = None,
    hello: dict[str, Any] | None = None,
) -> Synced:
    """Pull the board's new games and its crash log. progress(done, total);
    hello: the board's HELLO, if the caller has asked it already."""
    if hello is None:
        hello = link.hello()
    host_now = time.time()
    board = board_of(hello)
    if type(hello.get("seq")) is not int:
        raise LinkError(_("the board's HELLO carries no record count (%s)") % ascii(hello.get("seq"))[:40])
    log = intake.log_of(hello.get("log"))
    if log is None:
        raise LinkError(_("the board's HELLO carries no usable log id (%s)") % ascii(hello.get("log"))[:40])
    since = store.games.last_seq(conn, board, log)
    acked = hello.get("acked")
    if hello["seq"] < since or (type(acked) is int and 0 <= acked < since):
        # The board's log ends before what is stored of it, or the board does not know its records up to
        # there were taken: a log made anew by firmware that gives it no id, or another board with this id.
        # Those records are read again and held against what is stored: the same is skipped, anything else
        # kept apart with the reason (intake.classify), nothing dropped.
        since = min(since, acked) if type(acked) is int and 0 <= acked < hello["seq"] else 0
    link.set_time(int(host_now))
    total = max(0, hello["seq"] - since)
    new = done = rejected = 0
    now_iso = datetime.now(timezone.utc).isoformat(timespec="seconds")
    store.games.add(conn, board, hello.get("fw"), [], now_iso, {})
    retries = 0
    while True:
        try:
            records, last = link.records(since)
        except Garbled:
            retries += 1
            if retries > RETRIES:
                raise LinkError(_("the line to the board keeps garbling records; check the cable")) from None
            continue  # ask for the same records again
        if not records:
            break
        try:
            games, kept_apart, _again = intake.classify(conn, board, records, last, log)
        except intake.BadBatch as e:  # (the link checked the numbering already: this is a second look)
            raise LinkError(str(e)) from None
        walls = {seq: wall_time(game.record, hello, host_now) for seq, game in games}
        new += store.games.add(conn, board, hello.get("fw"), games, now_iso, walls, kept_apart, log)
        rejected += len(kept_apart)
        since = records[-1][0]
        link.ack(since)  # only after the commit above
        done += len(records)
        total = max(total, done + last - since)
        if progress:
            progress(done, total)
    kept = link.crashes()
    crashes = 0
    if kept:
        crashes = store.reports.store_crashes(conn, board, kept, now_iso)
        link.clear_crashes(len(kept))  # only after they are stored
    return Synced(new, rejected, board, crashes)
