# Connections for a server's threads (the club's): each request takes one
# for its own short transaction, and none is held across another's wait.
# PostgreSQL through psycopg_pool: a connection is checked before a request
# has it, and after a restart the pool makes new ones at once; SQLite a connection
# per thread for reading, in WAL mode (readers never wait for the writer),
# and one writer that takes the requests' writes in turn and commits what
# is waiting together (store.groupwrite), waiting a few seconds at most for
# another program's. A database away or busy is a DbError the
# server answers with 503, never a wait that holds a board for long.
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from cribboard.store.engine import Database, DbError, busy_wait, is_server, open_sqlite, postgresql_database, safe_url
from cribboard.store.groupwrite import GroupWriter
from cribboard.text.i18n import _

T = TypeVar("T")
U = TypeVar("U")
WAIT_S = 3.0  # the longest a request waits for a connection, or for SQLite's writer


class Pool:
    """Connections to url (already migrated: `serve` opened it first), up to size at once."""

    def __init__(self, url: str, size: int) -> None:
        self.url = url
        self._local = threading.local()
        self._sqlite: list[Database] = []  # every thread's, to close
        self._lock = threading.Lock()
        self._pg: Any = None
        self._writer: GroupWriter | None = None
        if is_server(url):
            self._pg = _pg_pool(url, size)
        else:  # WAL is kept in the file: set once here, before any thread's connection
            db = open_sqlite(url)
            try:
                db.execute("PRAGMA journal_mode = WAL")
            finally:
                db.close()
            self._writer = GroupWriter(self._sqlite_connection)

    @contextmanager
    def db(self) -> Iterator[Database]:
        """A connection for one request; DbError if there is none within WAIT_S."""
        if self._pg is None:
            yield self._thread_sqlite()
            return
        conn = self._pg_connection()
        try:
            yield postgresql_database(conn, self.url)
        finally:
            self._pg.putconn(conn)  # a broken one is closed there, and another made

    @contextmanager
    def opened_with(self, first: Callable[[Database], T]) -> Iterator[tuple[Database, T]]:
        """A connection for one request, and what its first statement gave: on PostgreSQL the statement is
        tried on a pooled connection unchecked, and again on another if that one was broken (a restart
        breaks every one the pool holds): a round trip a request fewer than a check first. The statement
        is one that may be tried twice: a read, or a write whose own condition refuses it the second time
        (a counter taken once)."""
        if self._pg is None:
            db = self._thread_sqlite()
            yield db, first(db)
            return
        deadline = time.monotonic() + WAIT_S
        swept = False
        while True:
            conn = self._pg_getconn(deadline)
            db = postgresql_database(conn, self.url)
            try:
                value = first(db)
                break
            except DbError:
                self._pg.putconn(conn)  # (a broken one is closed there)
                if not conn.broken or time.monotonic() > deadline:
                    raise
                if not swept:
                    swept = True
                    self._pg.check()
        try:
            yield db, value
        finally:
            self._pg.putconn(conn)

    def with_first(self, first: Callable[[Database], T], then: Callable[[Database, T], U]) -> U:
        """then(db, first(db)), on one connection: on PostgreSQL as opened_with (first may be tried again on
        another connection if the one it had was broken); on SQLite in the one writer's transaction, committed
        with the other requests' waiting then (store.groupwrite): then's value once it is in the file."""
        if self._writer is not None:
            return self._writer.run(lambda db: then(db, first(db)))
        with self.opened_with(first) as (db, value):
            return then(db, value)

    def _pg_getconn(self, deadline: float) -> Any:
        from psycopg_pool import PoolTimeout

        try:
            return self._pg.getconn(timeout=max(0.01, deadline - time.monotonic()))
        except PoolTimeout:
            raise DbError(_("the database %s: no connection within %g s") % (safe_url(self.url), WAIT_S)) from None

    def _pg_connection(self) -> Any:
        """A pooled connection that answers. The first that does not (a restart broke every one the pool
        holds) has the pool check all its idle ones at once, so new ones are made without waiting for
        each to be tried and given up in turn."""
        from psycopg import Error
        from psycopg_pool import ConnectionPool

        deadline = time.monotonic() + WAIT_S
        swept = False
        while True:
            conn = self._pg_getconn(deadline)
            try:
                ConnectionPool.check_connection(conn)
                return conn
            except Error:
                self._pg.putconn(conn)
                if not swept:
                    swept = True
                    self._pg.check()

    def _thread_sqlite(self) -> Database:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._sqlite_connection()
            self._local.db = db
            with self._lock:
                self._sqlite.append(db)
        return db

    def _sqlite_connection(self) -> Database:
        """A connection to the SQLite file (a thread's, or the writer's) whose writes wait WAIT_S at most for another
        program's."""
        db = open_sqlite(self.url, threads=True)
        db.wait_s, db.say_busy = WAIT_S, False
        db.conn.execute("PRAGMA busy_timeout = %d" % (WAIT_S * 1000))
        return db

    def healthy(self) -> bool:
        """Whether the database answers now: on PostgreSQL, a connection the pool checked (one round trip);
        on SQLite, a read of the file's schema (a connection alone reads nothing)."""
        try:
            with self.db() as db:
                return self._pg is not None or db.value("SELECT count(*) FROM sqlite_master") > 0
        except DbError:
            return False

    def close(self) -> None:
        if self._pg is not None:
            self._pg.close()
        if self._writer is not None:
            self._writer.close()
        with self._lock:
            for db in self._sqlite:
                db.close()
            self._sqlite.clear()


def _pg_pool(url: str, size: int) -> Any:
    try:
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool, PoolTimeout
    except ImportError:
        raise DbError(_('a PostgreSQL database needs psycopg: pip install "cribboard[postgresql]"')) from None
    # A request waits WAIT_S for a connection (then 503: its board tries again later); making one may take
    # longer on a loaded machine, and is waited for as any database is (busy_wait: CRIBBOARD_DB_WAIT). All
    # are made before the server says it is up, and kept: a club's boards come all at once (the WiFi comes
    # up, a round ends), and a burst that had to wait for new connections was answered 503 (a load test on
    # a busy machine saw a minute of them); a database it cannot reach is an error at the start.
    wait = busy_wait()
    pool = ConnectionPool(
        url,
        min_size=size,
        max_size=size,
        open=False,
        timeout=WAIT_S,
        reconnect_timeout=wait,
        name="club",
        kwargs={"autocommit": True, "row_factory": dict_row, "connect_timeout": wait},
    )
    try:
        pool.open(wait=True, timeout=wait)
    except PoolTimeout:
        pool.close()
        raise DbError(_("cannot reach the PostgreSQL server %s within %d s") % (safe_url(url), wait)) from None
    return pool
