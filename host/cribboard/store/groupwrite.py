# Writes to a SQLite file taken in turn, and committed together (a group
# commit): SQLite has one writer at a time, and threads that each begin a
# transaction fight for its lock, each waiting, retrying and syncing the
# file on its own (300 boards at once: p99 3.2 s, one request in 26 given
# up on). Here one thread holds the only connection that writes; a request
# hands it its work and waits. The thread takes every piece of work that is
# waiting, runs each in a savepoint of one transaction (a piece that fails
# is rolled back alone, and its caller gets its exception), commits once,
# and only then answers each: a caller is answered once what it wrote is in
# the file. PostgreSQL needs none of this: its writers go side by side.
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from cribboard.store.engine import Database, DbError

T = TypeVar("T")
BATCH = 64  # pieces of work in one transaction at most (a burst of boards is a few of them)


class GroupWriter:
    def __init__(self, connect: Callable[[], Database]) -> None:
        """connect(): the writer's connection, opened in its own thread."""
        self._connect = connect
        self._waiting: queue.SimpleQueue[tuple[Callable[[Database], Any], Future[Any]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="db-writer", daemon=True)
        self._thread.start()
        self.commits = 0  # transactions committed (the tests and the bench read it)

    def run(self, work: Callable[[Database], T]) -> T:
        """work(db) in the writer's transaction, committed: its value, or what it raised (DbError if the
        commit failed: then nothing of it was kept)."""
        done: Future[T] = Future()
        self._waiting.put((work, done))
        return done.result()

    def waiting(self) -> int:
        """How many pieces of work wait for the writer (not counting the one it is on)."""
        return self._waiting.qsize()

    def close(self) -> None:
        self._waiting.put(None)
        self._thread.join()

    def _run(self) -> None:
        db: Database | None = None
        try:
            while True:
                first = self._waiting.get()
                if first is None:
                    return
                batch = [first]
                while len(batch) < BATCH:
                    try:
                        more = self._waiting.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        self._waiting.put(None)  # (the close, after this batch)
                        break
                    batch.append(more)
                try:
                    if db is None:
                        db = self._connect()
                    self._write(db, batch)
                except Exception as e:  # (the database's fault, or the writer's: each caller told, none left waiting)
                    for _work, done in batch:
                        if not done.done():
                            done.set_exception(e)
                    if not isinstance(e, DbError) and db is not None:
                        db.close()  # (a connection in a state unknown: a new one for the next batch)
                        db = None
        finally:
            if db is not None:
                db.close()

    def _write(self, db: Database, batch: list[tuple[Callable[[Database], Any], Future[Any]]]) -> None:
        results: list[tuple[Future[Any], bool, Any]] = []
        with db.transaction():
            for work, done in batch:
                db.execute("SAVEPOINT work")
                try:
                    value = work(db)
                except BaseException as e:  # (its caller's to handle: the rest of the batch goes on)
                    db.execute("ROLLBACK TO work")
                    db.execute("RELEASE work")
                    results.append((done, False, e))
                    continue
                db.execute("RELEASE work")
                results.append((done, True, value))
        self.commits += 1
        for done, ok, value in results:  # (once committed: each is answered on what is in the file)
            if ok:
                done.set_result(value)
            else:
                done.set_exception(value)
