# The club's server's own backups (cribboard.store.backup's, in a thread of
# their own beside the requests): one when the newest in the folder is older
# than `every`, one after each club night or tournament that begins or ends
# (the director's `night new` and `night end` run beside the server on the
# same database: seen as the count of those begun and ended going up; a
# night lost mid-way is restored with its draw), the newest `keep` kept. Each is one
# log line (where, how big, what it holds); one that fails is one line too,
# tried again after RETRY_S, and the server carries on.
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from cribboard.errors import CribboardError
from cribboard.store import backup
from cribboard.store.engine import DbError
from cribboard.store.pool import Pool
from cribboard.waits import seconds

log = logging.getLogger("club")
CHECK_S = 30.0  # how often the thread looks (CRIBBOARD_BACKUP_CHECK says otherwise)
RETRY_S = 600.0  # after a backup that failed (a full disk, PostgreSQL away)


class Schedule:
    """When a backup is due, and why, on a clock given: the newest made (or the folder's newest) older than
    every_s, or more events begun or ended than at the last one; after a failure not before retry_s."""

    def __init__(self, every_s: float, newest: float | None, milestones: int, retry_s: float = RETRY_S) -> None:
        self.every_s = every_s
        self.last = newest  # when the newest backup was made (unix seconds), None if there is none
        self.milestones = milestones  # events begun and ended at the newest backup (at the start: as many as then)
        self.retry_s = retry_s
        self.not_before = 0.0

    def due(self, now: float, milestones: int) -> str | None:
        """Why a backup is due now, or None."""
        if now < self.not_before:
            return None
        if milestones > self.milestones:
            return "after a club night or tournament began or ended"
        if self.last is None:
            return "the first in this folder"
        if now - self.last >= self.every_s:
            return "on schedule"
        return None

    def made(self, now: float, milestones: int) -> None:
        self.last, self.milestones, self.not_before = now, milestones, 0.0

    def failed(self, now: float) -> None:
        self.not_before = now + self.retry_s


@dataclass(frozen=True)
class Plan:
    """What serve was told of its backups: the folder (create: made if it is not there, the default one),
    how often, how many kept."""

    folder: Path
    every_s: float
    keep: int
    create: bool


class Backups:
    """serve's backups of url, as plan says: start() the thread, close() stops it (a backup under way is
    finished first: its file is whole or not there)."""

    def __init__(self, url: str, pool: Pool, plan: Plan, clock: Callable[[], float] = time.time) -> None:
        self.url, self.pool, self.clock = url, pool, clock
        self.folder, self.keep, self.create = plan.folder, plan.keep, plan.create
        self.check_s = seconds("CRIBBOARD_BACKUP_CHECK", CHECK_S)
        newest = backup.backups_in(plan.folder)
        made = backup.made_at(newest[-1]) if newest else None
        self.schedule = Schedule(plan.every_s, made.timestamp() if made else None, self._milestones())
        self.away = False  # the database did not answer the last look (said once, not every look)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="backups", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        while True:
            try:
                self.step()
            except Exception as e:  # (a fault of this thread's: said, and the next check goes on)
                log.warning("backups: failed: %s: %s", type(e).__name__, ascii(str(e)[:200]))
            if self._stop.wait(self.check_s):
                return

    def step(self) -> backup.Backup | None:
        """A backup, if one is due now, and its log line."""
        now = self.clock()
        try:
            milestones = self._milestones()
        except DbError as e:  # (the database away: the requests answer 503 meanwhile; a backup waits)
            if not self.away:
                log.warning("backup: the database cannot be read: %s; backups wait for it", e)
            self.away = True
            return None
        self.away = False
        why = self.schedule.due(now, milestones)
        if why is None:
            return None
        began = time.monotonic()
        try:
            made = backup.make(self.url, self.folder, datetime.fromtimestamp(now, timezone.utc), self.create)
        except CribboardError as e:  # (a full disk, the folder gone, pg_dump missing: said, tried again later)
            self.schedule.failed(now)
            log.warning("backup failed (%s): %s; tried again in %d minutes", why, e, self.schedule.retry_s // 60)
            return None
        self.schedule.made(now, milestones)
        gone = backup.prune(self.folder, self.keep)
        log.info(
            "backup made (%s) in %.1f s: %s%s",
            why,
            time.monotonic() - began,
            backup.said(made),
            "; removed %d older, keeping %d" % (len(gone), self.keep) if gone else "",
        )
        return made

    def _milestones(self) -> int:
        with self.pool.db() as db:
            return backup.milestones(db)
