# Connections for a server's threads (the club's): each request takes one
# for its own short transaction, and none is held across another's wait.
# PostgreSQL through psycopg_pool, which checks a connection before handing
# it out and makes new ones after the server restarts; SQLite a connection
# per thread, in WAL mode (readers never wait for the writer), whose writer
# waits a few seconds at most. A database away or busy is a DbError the
# server answers with 503, never a wait that holds a board for long.
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cribboard.i18n import _
from cribboard.store.engine import Database, DbError, _safe, _sqlite, is_server, postgresql_database

WAIT_S = 3.0  # the longest a request waits for a connection, or for SQLite's writer


class Pool:
    """Connections to url (already migrated: `serve` opened it first), up to size at once."""

    def __init__(self, url: str, size: int) -> None:
        self.url = url
        self._local = threading.local()
        self._sqlite: list[Database] = []  # every thread's, to close
        self._lock = threading.Lock()
        self._pg: Any = None
        if is_server(url):
            self._pg = _pg_pool(url, size)
        else:  # WAL is kept in the file: set once here, before any thread's connection
            db = _sqlite(url)
            try:
                db.execute("PRAGMA journal_mode = WAL")
            finally:
                db.close()

    @contextmanager
    def db(self) -> Iterator[Database]:
        """A connection for one request; DbError if there is none within WAIT_S."""
        if self._pg is None:
            yield self._thread_sqlite()
            return
        from psycopg_pool import PoolTimeout

        try:
            with self._pg.connection(timeout=WAIT_S) as conn:
                yield postgresql_database(conn, self.url)
        except PoolTimeout:
            raise DbError(_("the database %s: no connection within %g s") % (_safe(self.url), WAIT_S)) from None

    def _thread_sqlite(self) -> Database:
        db = getattr(self._local, "db", None)
        if db is None:
            db = _sqlite(self.url, threads=True)
            db.wait_s, db.say_busy = WAIT_S, False
            db.conn.execute("PRAGMA busy_timeout = %d" % (WAIT_S * 1000))
            self._local.db = db
            with self._lock:
                self._sqlite.append(db)
        return db

    def healthy(self) -> bool:
        """Whether the database answers now."""
        try:
            with self.db() as db:
                return db.value("SELECT 1") == 1
        except DbError:
            return False

    def close(self) -> None:
        if self._pg is not None:
            self._pg.close()
        with self._lock:
            for db in self._sqlite:
                db.close()
            self._sqlite.clear()


def _pg_pool(url: str, size: int) -> Any:
    try:
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool
    except ImportError:
        raise DbError(_('a PostgreSQL database needs psycopg: pip install "cribboard[postgresql]"')) from None
    # reconnect_timeout: a pool that gave up reconnecting grows again on the next request, at once.
    return ConnectionPool(url, min_size=1, max_size=size, open=True, timeout=WAIT_S,
                          reconnect_timeout=WAIT_S, check=ConnectionPool.check_connection, name="club",
                          kwargs={"autocommit": True, "row_factory": dict_row, "connect_timeout": int(WAIT_S)})
