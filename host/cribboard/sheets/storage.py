# The score sheets kept in the database between lines and sessions: each
# change saved at once, read back with every deal checked again. A
# finished piquet partie is also a game among the boards' (so the
# listings, standings and exports take it as they take a board's).
import json
import time
from datetime import datetime, timezone
from typing import Any

from cribboard import __version__, store
from cribboard.records import check
from cribboard.sheets import barbu as barbu_sheet
from cribboard.sheets import piquet as piquet_sheet
from cribboard.text.i18n import _


def _read(row: Any, key: int, unreadable: str) -> tuple[Any, Any]:
    """A kept sheet's names and record: KeyError if there is no row, ValueError(unreadable) if not JSON."""
    if row is None:
        raise KeyError(key)
    try:
        return json.loads(row["names"]), json.loads(row["record"])
    except ValueError:
        raise ValueError(unreadable) from None


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def save_rubber(
    db: Any, rubber: Any, names: list[str], rubber_id: int | None = None, partners: list[list[int]] | None = None
) -> int:
    """Keep a barbu rubber after a change: its id."""
    rec = json.dumps(barbu_sheet.record(rubber, names, partners))
    return store.sheets.save_rubber(
        db, rubber_id, json.dumps(names), rec, json.dumps(rubber.totals()), len(rubber.deals), rubber.over(), _now()
    )


def load_rubber(db: Any, rubber_id: int) -> tuple[Any, list[str], list[list[int]] | None]:
    """(rubber, names, partners or None) of a kept rubber: KeyError if there
    is none, ValueError if it is not one this tool can check again (which deal)."""
    names, record = _read(store.sheets.rubber(db, rubber_id), rubber_id, _("its record is not JSON"))
    rubber, partners = barbu_sheet.from_kept(names, record)
    return rubber, names, partners


def rubbers(db: Any) -> list[dict[str, Any]]:
    """Every kept rubber, as its listing shows it."""
    out = []
    for r in store.sheets.rubbers(db):
        try:
            partners = barbu_sheet.partners_of(json.loads(r["record"]))
        except ValueError:
            partners = None  # listed without its pairs; show and export say what is wrong
        out.append(
            {
                "id": r["id"],
                "names": json.loads(r["names"]),
                "deals": r["deals"],
                "finished": bool(r["finished"]),
                "totals": json.loads(r["totals"]),
                "updated": r["updated"],
                "partners": partners,
            }
        )
    return out


def save_partie(db: Any, sheet: piquet_sheet.Sheet, sheet_id: int | None = None) -> int:
    """Keep a piquet sheet after a change; a finished partie is also a game
    among the boards' (the one stored before is replaced: undo and fix reach it)."""
    now = _now()
    board = piquet_sheet.SHEET_BOARD
    with db.transaction():
        kept_id = store.sheets.save_partie(
            db,
            sheet_id,
            json.dumps(sheet.names),
            json.dumps(piquet_sheet.kept(sheet)),
            len(sheet.deals()),
            sheet.game.over(),
            now,
        )
        store.games.forget_game(db, board, kept_id)
        if sheet.game.over():
            game = check(json.dumps(piquet_sheet.record(sheet, kept_id)))
            store.games.add(db, board, "cribboard " + __version__, [(kept_id, game)], now, {kept_id: time.time()})
    return kept_id


def load_partie(db: Any, sheet_id: int) -> piquet_sheet.Sheet:
    """A kept piquet sheet, every deal checked again: KeyError if there is
    none, ValueError if what is kept cannot be a partie."""
    names, kept = _read(store.sheets.partie(db, sheet_id), sheet_id, _("what is kept of it is not a sheet"))
    return piquet_sheet.from_kept(names, kept)


def parties(db: Any) -> list[dict[str, Any]]:
    """Every kept piquet sheet, with its totals (a row that cannot be read says so)."""
    out = []
    for r in store.sheets.parties(db):
        row = {
            "id": r["id"],
            "names": None,
            "deals": r["deals"],
            "finished": bool(r["finished"]),
            "updated": r["updated"],
            "totals": None,
            "result": None,
            "problem": None,
        }
        try:
            sheet = load_partie(db, r["id"])
            row["names"], row["totals"] = sheet.names, sheet.game.scores()
            row["result"] = piquet_sheet.as_json(sheet, r["id"])["result"]  # the same words in every language
        except ValueError as e:
            row["problem"] = str(e)
        out.append(row)
    return out
