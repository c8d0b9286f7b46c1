# A board the club's database has fallen behind (a restore from an older
# backup, a disk lost): each report says the last record the board was told
# was stored ("after", in its log "log"); when the database lacks it, the
# answer says where to send again from ("resend"), and the board moves its
# sent-cursor back there and sends the rest by itself. The one intake rule
# makes a record sent again harmless (stored once). A board's record found
# held is remembered (in memory, bounded), so the live reports of a board
# that is not behind cost no read. A board behind, and what came back, are
# log lines for the director, and kept (board_heals: `cribboard boards`).
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from cribboard import store
from cribboard.club.ratelimit import MAX_KEYS
from cribboard.intake import log_of
from cribboard.records import MAX_INT
from cribboard.store.engine import Database


class BadAfter(ValueError):
    """A report's "after" that is no record number."""


def reported(data: dict[str, Any]) -> tuple[str, int] | None:
    """The (log, after) a report gives, None if it gives none (firmware from before); BadAfter if after is
    there but no record number."""
    after = data.get("after")
    if after is None:
        return None
    if type(after) is not int or not 0 <= after <= MAX_INT:
        raise BadAfter("after is the last record the board was told was stored, from 0 to %d" % MAX_INT)
    log = log_of(data.get("log"))
    return None if log is None else (log, after)


class Heals:
    """The boards' records known held, and the boards behind (what each was asked to send again)."""

    def __init__(self, note: Callable[..., None], now: Callable[[], str], most: int = MAX_KEYS) -> None:
        self._note = note  # one log line (the club's, rate-limited per board)
        self._now = now  # the time as the database keeps it
        self._held: OrderedDict[tuple[str, str], int] = OrderedDict()  # (board, log) -> a record known held
        self._behind: dict[str, tuple[str, int, int]] = {}  # board -> (log, resend, lacked): a heal under way
        self._most = most
        self._lock = threading.Lock()

    def follow(self, db: Database) -> None:
        """The heals under way when this server starts (one before it stopped goes on being counted)."""
        with self._lock:
            for r in store.club.open_heals(db):
                self._behind[r["board"]] = (r["log"], int(r["resend"]), int(r["lacked"]))

    def known(self, board: str, said: tuple[str, int] | None) -> bool:
        """Whether this server knows the database holds the record the board says it was told was stored
        (a report with none says nothing to check)."""
        if said is None:
            return True
        with self._lock:
            return self._held.get((board, said[0]), -1) >= said[1]

    def check(self, db: Database, board: str, said: tuple[str, int] | None) -> int | None:
        """The record to send again after, if the database lacks the one the board was told was stored."""
        if said is None or self.known(board, said):
            return None
        log, after = said
        resend = store.games.behind(db, board, log, after)
        if resend is None:
            self._keep(board, log, after)
            return None
        with self._lock:
            first = self._behind.get(board) != (log, resend, after)
            self._behind[board] = (log, resend, after)
        if first:
            store.club.heal_noticed(db, board, log, after, resend, self._now())
            self._note(
                board,
                "board %s is behind: the database lacks its record %d (log %s), which it was told was stored "
                "(a restore, a disk lost); asked to send its records after %d again",
                board,
                after,
                log,
                resend,
            )
        return resend

    def stored(self, db: Database, board: str, log: str, seqs: Sequence[int]) -> None:
        """A batch of the board's records was taken (seqs: those stored now): counted if it is what the board
        was asked to send again, and said once all of it is back."""
        with self._lock:
            behind = self._behind.get(board)
            if behind is None or behind[0] != log:
                return
            _log, start, end = behind
            back = sum(1 for s in seqs if start < s <= end)
            whole = max(seqs, default=0) >= end
            if whole:
                del self._behind[board]
        store.club.heal_back(db, board, log, end, back, whole, self._now())
        if whole:
            self._keep(board, log, end)
            back_again = "record %d is" % end if start + 1 == end else "records %d-%d are" % (start + 1, end)
            self._note(board, "board %s is whole again: its %s back", board, back_again)

    def _keep(self, board: str, log: str, after: int) -> None:
        with self._lock:
            key = (board, log)
            self._held[key] = max(after, self._held.get(key, -1))
            self._held.move_to_end(key)
            if len(self._held) > self._most:
                self._held.popitem(last=False)
