# What the host takes of a batch of a board's records, the one rule for a USB
# sync and a club's WiFi report (so the two ways in cannot drift): the
# numbering is a board's (records.out_of_order); a record is keyed by its
# board, its log (the id the board's log was made with, '' for firmware
# that gives none) and its number. A record the database holds under that
# key already is one sent again (an answer the board never got), skipped
# only if it is the same; one that is not is kept apart with the reason,
# the stored one kept: never dropped in silence. Any other record is a game
# (records.check) and not one already stored under another number; what
# fails those checks is kept apart with the reason, never lost. A board's
# id, its log's id and a game's date are judged here too, for both.
import json
import re
from typing import Any, NamedTuple

from cribboard import store
from cribboard.records import NOT_AS_STORED, SAME_GAME, BadRecord, CheckedGame, Reason, check, out_of_order, parsed
from cribboard.store.engine import Database, storable
from cribcore import TICKS_PERIOD
from cribcore.ticks import Ticks

BOARD_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")  # a chip's unique id in hex, or a name of letters
LOG_ID = re.compile(r"[0-9a-f]{16}")  # what a board's log is named with (cribapp.recovery: 64 random bits in hex)
EARLIEST = 1_577_836_800  # 2020-01-01: a date before it is no game of a Cribboard's
LATEST_AHEAD = 86_400  # nor one more than a day after the host's clock
MAX_TICKS = 1 << 40  # far past any board's ticks period (2**30 on MicroPython)


def wall_time(rec: dict[str, Any], hello: dict[str, Any], host_now: float) -> float | None:
    """Unix seconds at which the game was confirmed, or None if unknown or
    not plausible (before 2020, or more than a day ahead of host_now). The
    board's ticks wrap where its HELLO says (before `period`: MicroPython's).
    Shared by a USB sync and the club's server: hello is the HELLO, or the
    WiFi report's boot, ticks and period, as the board sent them."""
    ticks, now_ticks = rec.get("ticks"), hello.get("ticks")
    if type(ticks) is not int or not 0 <= ticks < MAX_TICKS:
        return None
    period = hello.get("period", TICKS_PERIOD)
    if type(period) is not int or not 2 <= period <= MAX_TICKS or period & (period - 1):
        period = TICKS_PERIOD  # not a power of two: a board cannot mean it
    ticks_diff = Ticks(period).ticks_diff
    if rec.get("boot") == hello.get("boot") and type(now_ticks) is int and 0 <= now_ticks < MAX_TICKS:
        wall = host_now - ticks_diff(now_ticks, ticks) / 1000
    else:
        given = rec.get("wall")
        if not (isinstance(given, list) and len(given) == 2 and all(type(w) is int for w in given)):
            return None
        wall = given[0] + ticks_diff(ticks, given[1]) / 1000
    return wall if EARLIEST <= wall <= host_now + LATEST_AHEAD else None


class BadBatch(ValueError):
    """A batch whose numbering no board's log has: nothing of it is taken."""


class Classified(NamedTuple):
    """A board's batch, each record in one of three: a game to store, one to keep apart (and why), one held already."""

    games: list[tuple[int, CheckedGame]]  # to store
    apart: list[tuple[int, Reason, str]]  # (seq, reason, raw): to keep apart
    again: list[int]  # seqs the database holds already


def log_of(given: Any) -> str | None:
    """The log's id a board gave ('' if it gave none: firmware from before logs had ids), or None if it
    gave something no board makes."""
    if given is None:
        return ""
    return given if isinstance(given, str) and LOG_ID.fullmatch(given) else None


def classify(
    db: Database, board: str, records: list[tuple[Any, str]], last: int | None = None, log: str = ""
) -> Classified:
    """The batch [(seq, record's JSON text)] of the board's log, each record classified; BadBatch if its numbers are
    not whole, increasing, from 1 and at most last (the board's last record)."""
    seqs = [seq for seq, _text in records]
    wrong = out_of_order(seqs, 0, last)
    if wrong is not None:
        raise BadBatch(
            "record number %s after %s%s"
            % (
                _show(seqs[wrong]),
                seqs[wrong - 1] if wrong else "none",
                "" if last is None else " (the board's last is %d)" % last,
            )
        )
    held = store.games.held(db, board, log, seqs)
    games, apart, again = [], [], []
    batch: dict[tuple[int, int, str], int] = {}  # a game of this batch -> its seq
    for seq, text in records:
        kept = held.get(seq)
        if kept is not None:
            if _as_held(kept, text):
                again.append(seq)
            else:
                apart.append((seq, Reason(NOT_AS_STORED, seq=seq), text))
            continue
        try:
            game = check(text)
        except BadRecord as e:
            apart.append((seq, e.args[0], text))
            continue
        rec = game.record
        key = (rec["match"], rec["game_no"], json.dumps(rec["events"]))
        twin = batch.get(key) or store.games.twin(db, board, log, seq, game)
        if twin is not None:
            apart.append((seq, Reason(SAME_GAME, seq=twin), text))
            continue
        batch[key] = seq
        games.append((seq, game))
    return Classified(games, apart, again)


def _as_held(held: tuple[list[Any], list[str]], text: str) -> bool:
    """Whether a record sent again is what the database holds under its number: the game stored (as
    read), or a text kept apart (as kept)."""
    games, raws = held
    if storable(text) in raws:
        return True
    try:
        return parsed(text) in games
    except BadRecord:
        return False


def _show(v: Any) -> str:
    text = json.dumps(v)
    return text if len(text) <= 24 else text[:21] + "..."


TAKEN_LOG = "taken-%d"  # the log a record taken from those kept apart is stored under (its number may be taken)


class NotTaken(ValueError):
    """A record kept apart that cannot be taken into the games: why, as `kind` ("none": no such record; "fails":
    it fails its checks still, `reason` a records.Reason; "twin": the board has stored the game, as `seq`)."""

    def __init__(self, kind: str, **values: Any) -> None:
        super().__init__(kind, values)
        self.kind = kind
        self.values = values


def take_apart(db: Database, ident: int, now_iso: str) -> tuple[str, int]:
    """Take the record kept apart with this id into the games, once, its checks run again: (board, seq). It is
    stored under a log of its own (TAKEN_LOG: the number it had may hold another game) with the time it came
    as its date, and taken out of the list, in one transaction. NotTaken if there is no such record, if it
    fails its checks still, or if it is a game the board has stored already."""
    with db.transaction():
        row = store.reports.apart(db, ident)
        if row is None:
            raise NotTaken("none")
        try:
            game = check(row["raw"])
        except BadRecord as e:
            raise NotTaken("fails", reason=e.args[0]) from None
        board, seq = str(row["board"]), int(row["seq"])
        twin = store.games.twin(db, board, TAKEN_LOG % ident, seq, game)
        if twin is not None:
            raise NotTaken("twin", board=board, seq=twin)
        came = _received(str(row["received_at"]))
        store.games.add(db, board, None, [(seq, game)], now_iso, {seq: came}, log=TAKEN_LOG % ident, reported=False)
        store.reports.forget_apart(db, ident)
    return board, seq


def _received(iso: str) -> float | None:
    from datetime import datetime

    try:
        return datetime.fromisoformat(iso).timestamp()
    except ValueError:
        return None
