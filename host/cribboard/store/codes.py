# The players' codes in the database (cribboard.event.codes says what a code
# is): a player of a night (a tournament's qualifying is one) holds at most
# one code in use; a code given again voids the one before, kept with when.
from cribboard.store.engine import Database


def in_use(db: Database, night: int) -> dict[int, str]:
    """The night's codes in use, by player number."""
    rows = db.all("SELECT n, code FROM player_codes WHERE night_id = ? AND voided_at IS NULL", (night,))
    return {int(r["n"]): str(r["code"]) for r in rows}


def taken(db: Database, code: str) -> bool:
    """Whether any night has held this code, in use or voided (a voided code never opens a page again)."""
    return db.value("SELECT COUNT(*) FROM player_codes WHERE code = ?", (code,)) > 0


def holder(db: Database, code: str) -> tuple[int, int] | None:
    """The night and player number a code in use opens; None for one that is no one's or voided."""
    row = db.one("SELECT night_id, n FROM player_codes WHERE code = ? AND voided_at IS NULL", (code,))
    return None if row is None else (int(row["night_id"]), int(row["n"]))


def give(db: Database, night: int, number: int, code: str, now_iso: str) -> None:
    """The player's code from now: the one they held before, if any, voided."""
    db.execute(
        "UPDATE player_codes SET voided_at = ? WHERE night_id = ? AND n = ? AND voided_at IS NULL",
        (now_iso, night, number),
    )
    db.execute(
        "INSERT INTO player_codes (night_id, n, code, given_at) VALUES (?, ?, ?, ?)", (night, number, code, now_iso)
    )
