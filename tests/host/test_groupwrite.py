# SQLite's writes taken in turn and committed together (store.groupwrite):
# every caller answered with its own value once the batch is in the file,
# one piece's failure rolled back alone, a failed commit every caller's.
import sqlite3
import threading

import pytest
from deadline import WAIT_S

from cribboard import store
from cribboard.store.engine import DbError, open_sqlite
from cribboard.store.groupwrite import GroupWriter
from cribboard.store.pool import Pool


def writer_on(path, wait_s=WAIT_S):
    def connect():
        db = open_sqlite(str(path), threads=True)
        db.conn.execute("PRAGMA busy_timeout = %d" % (wait_s * 1000))
        db.say_busy = False
        return db

    store.connect(str(path)).close()  # (a cribboard database: what the writer's connection opens)
    conn = sqlite3.connect(str(path))
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE kept (n INTEGER PRIMARY KEY)")
    conn.close()
    return GroupWriter(connect)


def kept(path):
    conn = sqlite3.connect(str(path))
    try:
        return sorted(n for (n,) in conn.execute("SELECT n FROM kept"))
    finally:
        conn.close()


def test_the_work_waiting_is_committed_together_and_each_caller_gets_its_own_answer(tmp_path):
    writer = writer_on(tmp_path / "w.db")
    try:
        held, release = threading.Event(), threading.Event()

        def first(db):
            held.set()
            release.wait(WAIT_S)  # (the writer busy: what comes meanwhile waits, together)
            db.execute("INSERT INTO kept (n) VALUES (0)")
            return 0

        answers = {}

        def ask(n):
            def work(db):
                db.execute("INSERT INTO kept (n) VALUES (?)", (n,))
                if n == 7:
                    raise ValueError("seven")  # its own insert goes with it
                return n * 10

            try:
                answers[n] = writer.run(work)
            except ValueError as e:
                answers[n] = str(e)

        opening = threading.Thread(target=lambda: writer.run(first))
        opening.start()
        assert held.wait(WAIT_S)
        callers = [threading.Thread(target=ask, args=(n,)) for n in range(1, 11)]
        for t in callers:
            t.start()
        while writer.waiting() < 10:  # (every caller has handed its work over)
            threading.Event().wait(0.01)
        assert kept(tmp_path / "w.db") == []  # nothing is in the file before its commit
        release.set()
        for t in [opening, *callers]:
            t.join(WAIT_S)
        assert answers == {n: "seven" if n == 7 else n * 10 for n in range(1, 11)}
        assert kept(tmp_path / "w.db") == [0, 1, 2, 3, 4, 5, 6, 8, 9, 10]
        assert writer.commits == 2  # the first, then the ten that waited: one transaction
    finally:
        writer.close()


def test_a_commit_that_fails_fails_every_caller_and_keeps_nothing(tmp_path):
    path = tmp_path / "w.db"
    writer = writer_on(path, wait_s=0)
    other = sqlite3.connect(str(path), isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another program holds the file's one write lock
        with pytest.raises(DbError):
            writer.run(lambda db: db.execute("INSERT INTO kept (n) VALUES (1)"))
        other.execute("ROLLBACK")
        assert writer.run(lambda db: db.execute("INSERT INTO kept (n) VALUES (2)") and 2) == 2  # and it goes on
        assert kept(path) == [2]
    finally:
        other.close()
        writer.close()


def test_a_club_pool_on_sqlite_writes_through_its_writer(tmp_path):
    path = str(tmp_path / "club.db")
    store.connect(path).close()
    pool = Pool(path, 2)
    try:
        assert pool.with_first(lambda db: db.value("SELECT COUNT(*) FROM games"), lambda db, n: n + 1) == 1
        assert pool._writer is not None
        assert pool._writer.commits == 1
    finally:
        pool.close()
