# Sync: pull finished games from a board into the database. Records are
# stored and committed before they are acknowledged, and stored by (board,
# seq) once only, so a sync cut off at any moment is simply run again.
import re
import time
from datetime import datetime, timezone
from typing import NamedTuple

from cribapp.compat import TICKS_PERIOD
from cribapp.ticks import Ticks
from cribboard import store
from cribboard.i18n import _
from cribboard.linkclient import Garbled, LinkError
from cribboard.records import BadRecord
from cribboard.records import check as checked

RETRIES = 5
BOARD_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")  # a chip's unique id in hex, or a name of letters


def wall_time(rec, hello, host_now):
    """Unix seconds at which the game was confirmed, or None if unknown. The
    board's ticks wrap where its HELLO says (before `period`: MicroPython's)."""
    ticks = rec.get("ticks")
    if not isinstance(ticks, int):
        return None
    period = hello.get("period", TICKS_PERIOD)
    if not isinstance(period, int) or period < 2 or period & (period - 1):
        period = TICKS_PERIOD  # not a power of two: a board cannot mean it
    ticks_diff = Ticks(period).ticks_diff
    if rec.get("boot") == hello.get("boot"):
        return host_now - ticks_diff(hello["ticks"], ticks) / 1000
    wall = rec.get("wall")
    if isinstance(wall, list) and len(wall) == 2:
        return wall[0] + ticks_diff(ticks, wall[1]) / 1000
    return None


class Synced(NamedTuple):
    new: int  # games stored
    rejected: int  # records kept apart (records.check)
    board: str
    crashes: int = 0  # crashes the board had logged, stored and cleared from it


def sync(link, conn, progress=None, hello=None):
    """Pull the board's new games and its crash log. progress(done, total);
    hello: the board's HELLO, if the caller has asked it already."""
    if hello is None:
        hello = link.hello()
    host_now = time.time()
    board = hello.get("board")
    if not isinstance(board, str) or not BOARD_ID.fullmatch(board):
        raise LinkError(_("the board's HELLO carries no usable board id (%s)") % ascii(board)[:40])
    if type(hello.get("seq")) is not int:
        raise LinkError(_("the board's HELLO carries no record count (%s)") % ascii(hello.get("seq"))[:40])
    since = store.games.last_seq(conn, board)
    if hello["seq"] < since:
        raise LinkError(_("board %s says its last record is %d, but this database already holds its records up to "
                        "%d: its game log was cleared by a firmware that numbered games again from 1, or another "
                        "board has the same id. Nothing was synced, so that no game is taken for one already "
                        "stored (`cribboard flash` brings firmware that goes on numbering after a cleared log)")
                        % (board, hello["seq"], since))
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
        games, kept_apart = [], []
        for seq, body in records:
            try:
                games.append((seq, checked(body)))
            except BadRecord as e:
                kept_apart.append((seq, str(e), body))
        walls = {seq: wall_time(game.record, hello, host_now) for seq, game in games}
        new += store.games.add(conn, board, hello.get("fw"), games, now_iso, walls, kept_apart)
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
