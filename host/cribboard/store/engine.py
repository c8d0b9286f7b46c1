# The results database's engines: SQLite, a file on this computer (the
# default), or PostgreSQL, a club's server (postgresql://user@host/dbname,
# through psycopg 3). One small interface over both: `?` placeholders, rows
# as dicts, explicit transactions, the engine's errors as DbError. connect()
# migrates the schema forward (store.migrations) before it hands it out.
import os
import re
import sqlite3
import sys
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cribboard.errors import CribboardError
from cribboard.text.i18n import _
from cribboard.waits import seconds

SCHEMES = ("postgresql://", "postgres://")
_MIGRATION_LOCK = 121_0001  # PostgreSQL advisory lock key: one migrator at a time (see transaction)
_BUSY_S = 30  # how long to wait for a busy database (CRIBBOARD_DB_WAIT says otherwise)
_QUICK_MS = 500  # a lock held longer than this gets a message before the long wait

Row = dict[str, Any]


class DbError(CribboardError):
    pass


class EmptyDbError(DbError):
    """A database with no schema at all (an empty file, a new PostgreSQL database) that a reader would not
    make one."""


def busy_wait() -> int:
    """Seconds to wait for a database another process is writing to."""
    return int(seconds("CRIBBOARD_DB_WAIT", _BUSY_S, whole=True))


def storable(text: str) -> str:
    """Text as both engines keep it: a NUL (which PostgreSQL's text refuses) and a lone surrogate (which
    is no UTF-8) written as backslash escapes; anything else as it is."""
    if text.isascii() and "\x00" not in text:  # (nearly all text, a club's live states too: not copied)
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")


def _bound(args: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(storable(a) if isinstance(a, str) else a for a in args)


def path_of(url: str) -> Path:
    """A file path from a plain path, 'sqlite:path', or a URL as SQLAlchemy
    reads them: 'sqlite:///relative.db', 'sqlite:////absolute/path.db'."""
    if url.startswith("sqlite://"):
        rest = url[len("sqlite://") :]
        if not rest.startswith("/") or rest == "/":
            raise DbError(
                _("a SQLite URL is sqlite:///relative/path.db or sqlite:////absolute/path.db, not %s") % url[:80]
            )
        path = rest[1:]  # the third slash ends the (empty) host; a fourth begins an absolute path
    elif url.startswith("sqlite:"):
        path = url[len("sqlite:") :]
    elif "://" in url:
        raise DbError(
            _(
                "a database is a file (a path or sqlite:///path) or a PostgreSQL server "
                "(postgresql://user@host/dbname), not %s"
            )
            % url[:80]
        )
    else:
        path = url
    if not path.strip():
        raise DbError(_("no database named: --db (or CRIBBOARD_DB) is empty"))
    return Path(path)


def _dict_row(cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> Row:
    return {d[0]: v for d, v in zip(cursor.description, row)}


class Database:
    """A connection to either engine. `engine` is "sqlite" or "postgresql"."""

    def __init__(self, conn: Any, engine: str, errors: type[Exception], where: str) -> None:
        self.conn = conn
        self.engine = engine
        self.errors = errors  # the driver's error base class
        self.where = where  # the database, without any password, for messages
        self._depth = 0
        self.wait_s: float = busy_wait()  # how long a write waits for another writer (SQLite)...
        self.say_busy = True  # ...said on stderr when it begins (a command's; a server says nothing and answers 503)

    def _sql(self, sql: str) -> str:
        if self.engine == "postgresql":
            return sql.replace("%", "%%").replace("?", "%s")
        return sql

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """A cursor over the rows (dicts); rowcount says how many changed. Text is bound as both engines
        keep it (storable): a search for bytes from the command line that are no text (--board $'\\xff')
        finds what was kept of such bytes, instead of failing to encode."""
        try:
            return self.conn.execute(self._sql(sql), _bound(args))
        except self.errors as e:
            if not self._busy(e):
                raise self._failed(e) from None
        return self._waited(lambda: self.conn.execute(self._sql(sql), _bound(args)))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """One statement for many rows (psycopg pipelines them: one round trip, not one a row)."""
        try:
            self.conn.cursor().executemany(self._sql(sql), [_bound(r) for r in rows])
            return
        except self.errors as e:
            if not self._busy(e):
                raise self._failed(e) from None
        self._waited(lambda: self.conn.cursor().executemany(self._sql(sql), [_bound(r) for r in rows]))

    def _busy(self, e: Exception) -> bool:
        """Whether a command's statement outside a transaction found another process's lock, after the
        short wait: it is tried again, saying so (inside one, the transaction took the lock when it began)."""
        return (
            self.engine == "sqlite" and self.say_busy and not self._depth and ("locked" in str(e) or "busy" in str(e))
        )

    def _waited(self, statement: Callable[[], Any]) -> Any:
        """statement run again once another process's lock is let go, saying so first; a clear error if it
        stays held for the whole wait."""
        wait = self.wait_s
        print(
            "cribboard: "
            + _("the database %s is busy (another cribboard is writing to it): waiting up to %d s")
            % (self.where, wait),
            file=sys.stderr,
        )  # progress: stderr, as the command line's
        self.conn.execute("PRAGMA busy_timeout = %d" % (wait * 1000))
        try:
            return statement()
        except sqlite3.Error as e:
            raise DbError(
                _("the database %s stayed busy for %d s (%s): is another cribboard stuck on it?")
                % (self.where, wait, e)
            ) from None
        finally:
            self.conn.execute("PRAGMA busy_timeout = %d" % min(_QUICK_MS, wait * 1000))

    def _failed(self, e: Exception) -> DbError:
        """The engine's error as the tool's, in one line (PostgreSQL's goes on
        with the statement and a caret under the fault)."""
        if _read_only(e):
            return DbError(
                _(
                    "the database %s cannot be written here (the file, its folder or its disk is read-only to "
                    "this user): nothing was written to it; commands that only read it still work"
                )
                % self.where
            )
        said = (str(e).strip().splitlines() or [""])[0] or type(e).__name__
        return DbError(_("the database %s: %s") % (self.where, said))

    def all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        cursor = self.execute(sql, args)
        try:  # SQLite reads a page only as its rows are fetched: a damaged one fails here
            return list(cursor.fetchall())
        except self.errors as e:
            raise self._failed(e) from None

    def one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        cursor = self.execute(sql, args)
        try:
            return cursor.fetchone()
        except self.errors as e:
            raise self._failed(e) from None

    def value(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """The first column of the first row, or None."""
        row = self.one(sql, args)
        return None if row is None else next(iter(row.values()))

    @contextmanager
    def transaction(self, exclusive: bool = False) -> Iterator["Database"]:
        """All or nothing. exclusive: also no other migrator meanwhile (on
        PostgreSQL, whose writers otherwise go side by side)."""
        if self._depth:
            self._depth += 1
            try:
                yield self
            finally:
                self._depth -= 1
            return
        # SQLite: the write lock at once, so two writers queue (busy timeout)
        # instead of one failing when its read lock cannot become a write lock.
        if self.engine == "sqlite":
            self._begin_sqlite()
        else:
            self.execute("BEGIN")
        if exclusive and self.engine == "postgresql":
            self.execute("SELECT pg_advisory_xact_lock(%d)" % _MIGRATION_LOCK)
        self._depth = 1
        try:
            yield self
        except BaseException:
            self._depth = 0
            try:
                self.conn.execute("ROLLBACK")
            except self.errors:
                pass  # the connection is gone: the server rolls back by itself
            raise
        self._depth = 0
        self.execute("COMMIT")

    def _begin_sqlite(self) -> None:
        """BEGIN IMMEDIATE; if another process holds the write lock, a command says so once and waits for
        it (up to the busy timeout), then a clear error; a server waits its own time, silent."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.Error as e:
            if not self.say_busy or ("locked" not in str(e) and "busy" not in str(e)):
                raise self._failed(e) from None
        self._waited(lambda: self.conn.execute("BEGIN IMMEDIATE"))

    def close(self) -> None:
        self.conn.close()


_SQLITE_READONLY = 8  # SQLite's number (Python 3.10's errors carry none: there its own words are said)


def _read_only(e: Exception) -> bool:
    """Whether SQLite refused a write because it may only read the file (SQLITE_READONLY and its kinds)."""
    return isinstance(e, sqlite3.Error) and getattr(e, "sqlite_errorcode", 0) & 0xFF == _SQLITE_READONLY


class _Probe(Exception):
    """The write probe's own way out of its transaction: everything it did is rolled back."""


def check_writable(db: Database) -> None:
    """DbError unless this connection may write the results (a read-only file or mount, a PostgreSQL role
    or database set read-only): a server that would fail only when the first game arrives fails now."""
    try:
        with db.transaction():
            db.execute("UPDATE schema_version SET version = version")
            raise _Probe
    except _Probe:
        return


def check_sound(db: Database) -> None:
    """DbError if a SQLite file is damaged (SQLite's quick check: every page and row readable, the indexes
    in order; a season's database in a fraction of a second). A write touches only its own pages and would
    succeed beside the damage, so a command that writes asks first and the damage is said before anything
    is added to it. PostgreSQL checks its own pages."""
    if db.engine != "sqlite":
        return
    try:
        rows = db.conn.execute("PRAGMA quick_check(3)").fetchall()
        said = [line.strip() for r in rows for line in str(r["quick_check"]).splitlines()]
    except sqlite3.Error as e:  # too damaged to be checked: "database disk image is malformed"
        said = [str(e)]
    if said != ["ok"]:
        found = [line for line in said if line and not line.startswith("***")]  # (its "*** in database main ***")
        raise DbError(
            _(
                "the database %(db)s is damaged (%(what)s): nothing was written to it; mend it "
                "(`sqlite3 %(db)s .recover`) or use a copy"
            )
            % {"db": db.where, "what": "; ".join(found)}
        )


def open_sqlite(url: str, threads: bool = False, read_only: bool = False) -> Database:
    """read_only: the file opened as SQLite's mode=ro (nothing made, nothing written beside it; the file must
    be there)."""
    path = path_of(url)
    if path.is_dir():
        raise DbError(_("the database %s is a folder; name a file in it, e.g. %s") % (path, path / "cribboard.db"))
    if path.exists() and not path.is_file():  # /dev/null, a pipe: nothing a database can be kept in
        raise DbError(_("the database %s is not a file (a device or a pipe): name a file") % path)
    try:
        if read_only:
            return _sqlite_database(_reader(path), path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():  # a new file is this user's alone: a club's holds its boards' keys
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        # Transactions are ours. threads: one caller's threads take turns (it holds a lock), so any may use it.
        conn = sqlite3.connect(str(path), timeout=busy_wait(), isolation_level=None, check_same_thread=not threads)
    except (sqlite3.Error, OSError) as e:
        raise DbError(_("cannot open the database %s: %s") % (path, getattr(e, "strerror", None) or e)) from None
    return _sqlite_database(conn, path)


def _reader(path: Path) -> sqlite3.Connection:
    """A connection that reads the file and writes nothing to it. A database in WAL mode (a club's server
    keeps it so) is read through a -shm and a -wal that SQLite makes beside it and removes only when the
    last connection that may write closes: read so (query_only) where this user may write the file; where
    not, as the unchanging file it is (immutable) when no one has it open (no -wal), else read-only."""
    timeout = busy_wait()
    if os.access(path, os.W_OK):  # (the header is not read here: see below)
        conn = sqlite3.connect(
            "file:%s?mode=rw" % urllib.parse.quote(str(path.absolute())),
            uri=True,
            timeout=timeout,
            isolation_level=None,
        )
        conn.execute("PRAGMA query_only = ON")
        return conn
    # A file of this process's own closed drops every POSIX lock the process holds on the database (SQLite's
    # among them): another program's last close would then take the WAL away from under this process's
    # other connections (a club's server backing up). Read only where this user may not write the file,
    # when no connection of this process's can be writing it.
    with path.open("rb") as f:
        wal = f.read(20)[18:20] == b"\x02\x02"  # the header's write and read format versions: 2 is WAL
    quoted = urllib.parse.quote(str(path.absolute()))
    unchanging = wal and not Path(str(path) + "-wal").exists()
    where = "file:%s?mode=ro%s" % (quoted, "&immutable=1" if unchanging else "")
    return sqlite3.connect(where, uri=True, timeout=timeout, isolation_level=None)


def open_empty() -> Database:
    """A database in memory, for a command that reads before any database was made: it finds nothing."""
    return _sqlite_database(sqlite3.connect(":memory:", isolation_level=None), Path(":memory:"))


def _sqlite_database(conn: sqlite3.Connection, path: Path) -> Database:
    conn.row_factory = _dict_row
    db = Database(conn, "sqlite", sqlite3.Error, str(path))
    try:
        # A lock another process holds is waited for briefly, then (said on stderr) for the whole wait.
        db.execute("PRAGMA busy_timeout = %d" % min(_QUICK_MS, db.wait_s * 1000))
        db.execute("PRAGMA foreign_keys = ON")
        tables = {r["name"] for r in db.all("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except DbError:
        db.close()
        raise
    if tables and "schema_version" not in tables and "boards" not in tables:
        db.close()  # someone else's database: not ours to add tables to
        raise DbError(
            _("%s is a SQLite database, but not cribboard's (its tables: %s)") % (path, ", ".join(sorted(tables)[:5]))
        )
    return db


def open_postgresql(url: str) -> Database:
    try:
        import psycopg
        from psycopg.rows import dict_row
    except ImportError:
        raise DbError(_('a PostgreSQL database needs psycopg: pip install "cribboard[postgresql]"')) from None
    try:
        # Rows as dicts; passed through a dict because psycopg's overloads type
        # connect() for tuple rows unless the connection class is parametrised.
        options: dict[str, Any] = {"row_factory": dict_row}
        conn = psycopg.connect(url, autocommit=True, connect_timeout=busy_wait(), **options)
    except psycopg.Error as e:
        raise DbError(refused(url, e)) from None
    return postgresql_database(conn, url)


def refused(url: str, error: Exception) -> str:
    """Why a connection to PostgreSQL failed, in one line: a server that answered and refused (no such
    database or role, a password, pg_hba.conf) is not one that cannot be reached."""
    said = " ".join(str(error).split())  # psycopg's goes on with "\n\tIs the server running..."
    missing = re.search(r'FATAL: +(database|role) "([^"]*)" does not exist', said)
    if missing and missing[1] == "database":
        return _(
            "the PostgreSQL server of %(url)s has no database %(name)s: its owner makes it with "
            "`createdb -O ROLE %(name)s`"
        ) % {"url": safe_url(url), "name": missing[2]}
    if missing:
        return _(
            "the PostgreSQL server of %(url)s has no role %(name)s: an administrator makes it with "
            "`createuser %(name)s`"
        ) % {"url": safe_url(url), "name": missing[2]}
    if "FATAL:" in said:  # it answered: the reason is its own
        return _("the PostgreSQL server of %s refused the connection: %s") % (safe_url(url), said)
    return _("cannot reach the PostgreSQL server %s: %s") % (safe_url(url), said)


def postgresql_database(conn: Any, url: str) -> Database:
    """A psycopg connection to url (autocommit, rows as dicts) as a Database: one made here, or a pool's."""
    import psycopg

    return Database(conn, "postgresql", psycopg.Error, safe_url(url))


def safe_url(url: str) -> str:
    """The URL without its password, for messages."""
    scheme, _, rest = url.partition("://")
    who, at, where = rest.rpartition("@")
    return "%s://%s%s%s" % (scheme, who.split(":")[0], at, where) if at else url


def is_server(url: str) -> bool:
    return url.startswith(SCHEMES)
