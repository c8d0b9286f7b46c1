# Opening a database: the engine's connection (cribboard.store.engine), its
# schema then brought up to this tool's (cribboard.store.migrations). Apart
# from both, so that neither imports the other.
from cribboard.store.engine import Database, is_server, open_postgresql, open_sqlite
from cribboard.store.migrations import migrate


def connect(url: str, migrated: bool = True, threads: bool = False, create: bool = True) -> Database:
    """The database at url, its schema migrated to this tool's (migrated=False:
    as it is, for a test that makes a database of an earlier version;
    threads=True: used from several threads, one at a time, as a server's;
    create=False: an empty one is an error, not made a cribboard database)."""
    db = open_postgresql(url) if is_server(url) else open_sqlite(url, threads)
    if not migrated:
        return db
    try:
        migrate(db, create)
    except BaseException:
        db.close()
        raise
    return db
