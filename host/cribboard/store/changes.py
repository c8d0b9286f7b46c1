# The events' change mark: what tells a reader of the nights and tournaments
# (the club's boards' seating) that they changed since it last read them,
# in one small read. Migration 17's triggers move the counter; a board's new
# game moves the games' highest id.

from cribboard.store.engine import Database

Mark = tuple[int, int]  # (the events' changes, the last game stored)


def mark(db: Database) -> Mark:
    row = db.one("SELECT (SELECT n FROM event_changes) AS n, (SELECT MAX(id) FROM games) AS last")
    return (int(row["n"]), int(row["last"] or 0)) if row is not None else (0, 0)
