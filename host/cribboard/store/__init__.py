# The results database, all of it: the engines (SQLite, PostgreSQL), the
# schema's migrations, and one module a kind of thing kept. No SQL is
# written anywhere else in the host tool.
from cribboard.store import (
    club,
    codes,
    connection,
    engine,
    games,
    migrations,
    nights,
    players,
    reports,
    results,
    sheets,
)
from cribboard.store.connection import connect
from cribboard.store.engine import Database, DbError, Row, busy_wait, check_sound, is_server, path_of

__all__ = [
    "Database",
    "DbError",
    "Row",
    "busy_wait",
    "check_sound",
    "club",
    "codes",
    "connect",
    "connection",
    "engine",
    "games",
    "is_server",
    "migrations",
    "nights",
    "path_of",
    "players",
    "reports",
    "results",
    "sheets",
]
