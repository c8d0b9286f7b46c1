# The score sheets kept without a board: barbu rubbers and piquet parties,
# each its names, its record as JSON and what its listing shows.
from cribboard.store.engine import Database, Row


def save_rubber(
    db: Database, rubber_id: int | None, names: str, record: str, totals: str, deals: int, finished: bool, now: str
) -> int:
    """A barbu rubber kept (new if rubber_id is None): its id."""
    with db.transaction():
        if rubber_id is None:
            return db.value(
                "INSERT INTO barbu_rubbers (names, record, totals, deals, finished, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (names, record, totals, deals, int(finished), now, now),
            )
        db.execute(
            "UPDATE barbu_rubbers SET record = ?, totals = ?, deals = ?, finished = ?, updated = ? WHERE id = ?",
            (record, totals, deals, int(finished), now, rubber_id),
        )
        return rubber_id


def rubber(db: Database, rubber_id: int) -> Row | None:
    """A kept rubber's names and record (JSON), or None."""
    return db.one("SELECT names, record FROM barbu_rubbers WHERE id = ?", (rubber_id,))


def rubbers(db: Database) -> list[Row]:
    """Every kept rubber, oldest first."""
    return db.all("SELECT * FROM barbu_rubbers ORDER BY id")


def save_partie(
    db: Database, sheet_id: int | None, names: str, record: str, deals: int, finished: bool, now: str
) -> int:
    """A piquet sheet kept (new if sheet_id is None), in the caller's transaction: its id."""
    if sheet_id is None:
        return db.value(
            "INSERT INTO piquet_sheets (names, record, deals, finished, created, updated) "
            "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            (names, record, deals, int(finished), now, now),
        )
    db.execute(
        "UPDATE piquet_sheets SET record = ?, deals = ?, finished = ?, updated = ? WHERE id = ?",
        (record, deals, int(finished), now, sheet_id),
    )
    return sheet_id


def partie(db: Database, sheet_id: int) -> Row | None:
    """A kept piquet sheet's names and record (JSON), or None."""
    return db.one("SELECT names, record FROM piquet_sheets WHERE id = ?", (sheet_id,))


def parties(db: Database) -> list[Row]:
    """Every kept piquet sheet, oldest first: id, names, deals, finished, updated."""
    return db.all("SELECT id, names, deals, finished, updated FROM piquet_sheets ORDER BY id")
