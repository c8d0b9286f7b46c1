# Opening a database: the engine's connection (cribboard.store.engine), its
# schema then brought up to this tool's (cribboard.store.migrations). Apart
# from both, so that neither imports the other.
from cribboard.store.engine import (
    Database,
    check_sound,
    check_writable,
    is_server,
    open_empty,
    open_postgresql,
    open_sqlite,
)
from cribboard.store.migrations import current, migrate


def connect(
    url: str, migrated: bool = True, threads: bool = False, create: bool = True, checked: bool = False
) -> Database:
    """The database at url, its schema migrated to this tool's (migrated=False:
    as it is, for a test that makes a database of an earlier version;
    threads=True: used from several threads, one at a time, as a server's;
    create=False: an empty one is an error, not made a cribboard database; checked=True: a damaged SQLite
    file is refused before anything, a migration included, is written to it, and one this user may not
    write is refused before a command works out what it would write)."""
    db = open_postgresql(url) if is_server(url) else open_sqlite(url, threads)
    if not migrated:
        return db
    try:
        if checked:
            check_sound(db)
        migrate(db, create)
        if checked:
            check_writable(db)
    except BaseException:
        db.close()
        raise
    return db


def read(url: str) -> Database:
    """The database at url, for reading only: a SQLite file opened read-only (nothing is written to it or
    beside it, and a file the user may only read is read), a PostgreSQL session made read-only. Only a
    schema older than this tool's is written to first: migrated, as any command would."""
    if is_server(url):
        db = connect(url, create=False)
        try:
            db.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        except BaseException:
            db.close()
            raise
        return db
    db = open_sqlite(url, read_only=True)
    try:
        if current(db):
            return db
    except BaseException:
        db.close()
        raise
    db.close()
    connect(url, create=False).close()
    return open_sqlite(url, read_only=True)


def empty() -> Database:
    """A database with this tool's schema and nothing in it, in memory: what a reader finds before the first
    sync made one."""
    db = open_empty()
    migrate(db)
    return db
