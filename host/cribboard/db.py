# The results database (SQLite): boards, finished games and their events.
# The schema carries a version and is migrated forward step by step.
import json
import sqlite3
from pathlib import Path

from cribboard.errors import CribboardError

SCHEMA_VERSION = 2

MIGRATIONS = {
    1: """
    CREATE TABLE boards (
        board TEXT PRIMARY KEY,
        first_sync TEXT NOT NULL,
        last_sync TEXT NOT NULL,
        firmware TEXT
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        board TEXT NOT NULL REFERENCES boards(board),
        seq INTEGER NOT NULL,
        match_no INTEGER NOT NULL,
        game_no INTEGER NOT NULL,
        players INTEGER NOT NULL,
        target INTEGER NOT NULL,
        scheme TEXT NOT NULL,
        best_of INTEGER,
        first_to INTEGER,
        winner INTEGER,
        skunk INTEGER,
        points INTEGER,
        scores TEXT NOT NULL,
        match_winner INTEGER,
        ended_at REAL,
        record TEXT NOT NULL,
        synced_at TEXT NOT NULL,
        UNIQUE (board, seq)
    );
    CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        side INTEGER NOT NULL,
        points INTEGER NOT NULL,
        kind TEXT NOT NULL,
        ticks INTEGER NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    """,
    2: """
    CREATE TABLE barbu_rubbers (
        id INTEGER PRIMARY KEY,
        names TEXT NOT NULL,
        record TEXT NOT NULL,
        totals TEXT NOT NULL,
        deals INTEGER NOT NULL,
        finished INTEGER NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL
    );
    """,
}


class DbError(CribboardError):
    pass


def path_of(url):
    """A file path from 'sqlite:///path', 'sqlite:path' or a plain path."""
    for prefix in ("sqlite:///", "sqlite://", "sqlite:"):
        if url.startswith(prefix):
            rest = url[len(prefix):]
            return Path("/" + rest if prefix == "sqlite:///" and not rest.startswith("/") else rest)
    if "://" in url:
        raise DbError("only SQLite databases are supported (sqlite:///path), not %s" % url)
    return Path(url)


def connect(url):
    path = path_of(url)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), timeout=30)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn)
    return conn


def migrate(conn):
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise DbError("the database is from a newer cribboard (schema %d; this one knows %d)"
                      % (version, SCHEMA_VERSION))
    while version < SCHEMA_VERSION:
        version += 1
        with conn:
            conn.executescript(MIGRATIONS[version])
            conn.execute("PRAGMA user_version = %d" % version)


def last_seq(conn, board):
    row = conn.execute("SELECT MAX(seq) FROM games WHERE board = ?", (board,)).fetchone()
    return row[0] or 0


def store(conn, board, firmware, records, now_iso, walls):
    """Store records [(seq, record)] of one board in one transaction; a record
    already stored (same board and seq) is left as it is. Returns how many
    were new."""
    new = 0
    with conn:
        conn.execute(
            "INSERT INTO boards (board, first_sync, last_sync, firmware) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(board) DO UPDATE SET last_sync = excluded.last_sync, firmware = excluded.firmware",
            (board, now_iso, now_iso, firmware),
        )
        for seq, rec in records:
            mr = rec.get("match_result") or {}
            cur = conn.execute(
                "INSERT OR IGNORE INTO games (board, seq, match_no, game_no, players, target, scheme, best_of, "
                "first_to, winner, skunk, points, scores, match_winner, ended_at, record, synced_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (board, seq, rec["match"], rec["game_no"], rec["players"], rec["target"], rec["scheme"],
                 rec.get("best_of"), rec.get("first_to"), rec["winner"], rec["skunk"], rec["points"],
                 json.dumps(rec["scores"]), mr.get("winner"), walls.get(seq), json.dumps(rec), now_iso),
            )
            if cur.rowcount != 1:
                continue
            new += 1
            sides = 3 if rec["players"] == 3 else 2
            conn.executemany(
                "INSERT INTO events (game_id, n, seat, side, points, kind, ticks) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(cur.lastrowid, n, e[0], e[0] % sides, e[1], e[2], e[3]) for n, e in enumerate(rec["events"])],
            )
    return new
