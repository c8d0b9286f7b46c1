# Tournaments in the database: each one's qualifying night, format and
# match lengths, its seeds once the cut is made (the qualifiers' numbers in
# the night, seed 1 first), and the playoff games the director entered by
# hand (an undone one kept, marked). The boards' playoff games are not
# copied here: they are read from the games stored after the qualifying
# ended (cribboard.tournament.playoffs files them).
import json
from collections.abc import Sequence

from cribboard.store.engine import Database, Row


def begin(db: Database, night: int, fmt: str, best_of: int, final_best_of: int) -> int:
    with db.transaction():
        return int(
            db.value(
                "INSERT INTO tournaments (night_id, format, best_of, final_best_of) VALUES (?, ?, ?, ?) RETURNING id",
                (night, fmt, best_of, final_best_of),
            )
        )


def tournament(db: Database, tournament_id: int | None = None) -> Row | None:
    """A tournament by id; without one, the latest."""
    if tournament_id is not None:
        return db.one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    return db.one("SELECT * FROM tournaments ORDER BY id DESC LIMIT 1")


def in_playoffs(db: Database) -> list[Row]:
    """The tournaments whose cut is made and that have not ended, oldest first: their matches are seated."""
    return db.all("SELECT * FROM tournaments WHERE seeds IS NOT NULL AND ended_at IS NULL ORDER BY id")


def end(db: Database, tournament_id: int, now_iso: str) -> None:
    with db.transaction():
        db.execute("UPDATE tournaments SET ended_at = ? WHERE id = ? AND ended_at IS NULL", (now_iso, tournament_id))


def last_ended(db: Database) -> int | None:
    return db.value("SELECT id FROM tournaments WHERE ended_at IS NOT NULL ORDER BY ended_at DESC, id DESC LIMIT 1")


def reopen(db: Database, tournament_id: int) -> None:
    with db.transaction():
        db.execute("UPDATE tournaments SET ended_at = NULL WHERE id = ?", (tournament_id,))


def of_night(db: Database, night: int) -> Row | None:
    return db.one("SELECT * FROM tournaments WHERE night_id = ?", (night,))


def listing(db: Database) -> list[Row]:
    return db.all(
        "SELECT t.id, n.name, t.format, n.rounds AS games, n.started_at, t.cut_at, t.ended_at FROM tournaments t "
        "JOIN nights n ON n.id = t.night_id ORDER BY t.id"
    )


def seeds(row: Row) -> list[int] | None:
    return None if row["seeds"] is None else [int(p) for p in json.loads(row["seeds"])]


def set_seeds(db: Database, tournament_id: int, seeded: Sequence[int], now_iso: str) -> None:
    """The cut made: the qualifiers' numbers, seed 1 first (once: a cut made stands)."""
    with db.transaction():
        db.execute(
            "UPDATE tournaments SET seeds = ?, cut_at = ? WHERE id = ? AND seeds IS NULL",
            (json.dumps(list(seeded)), now_iso, tournament_id),
        )


def enter(
    db: Database,
    tournament_id: int,
    round_no: int,
    slot: int,
    game_no: int,
    replaces: bool,
    scores: tuple[int, int],
    target: int,
    now_iso: str,
) -> int:
    """A playoff game by hand: scores are the higher seed's, then the lower's; replaces: it stands in for a
    game counted already (a fix), else it is a game more (the board never reported it)."""
    return int(
        db.value(
            "INSERT INTO playoff_results (tournament_id, round, slot, game_no, replaces, high_score, low_score, "
            "target, entered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (tournament_id, round_no, slot, game_no, int(replaces), scores[0], scores[1], target, now_iso),
        )
    )


def undo(db: Database, tournament_id: int, now_iso: str) -> Row | None:
    """The last playoff game entered, and not undone, marked undone; it, or None."""
    with db.transaction():
        last = db.one(
            "SELECT * FROM playoff_results WHERE tournament_id = ? AND undone_at IS NULL ORDER BY id DESC LIMIT 1",
            (tournament_id,),
        )
        if last is not None:
            db.execute("UPDATE playoff_results SET undone_at = ? WHERE id = ?", (now_iso, last["id"]))
    return last


def entries(db: Database, tournament_id: int) -> list[Row]:
    """The playoff games entered by hand that stand, oldest first."""
    return db.all(
        "SELECT * FROM playoff_results WHERE tournament_id = ? AND undone_at IS NULL ORDER BY id", (tournament_id,)
    )
