# What the host takes of a batch of a board's records, the one rule for a USB
# sync and a club's WiFi report (so the two ways in cannot drift): the
# numbering is a board's (records.out_of_order), each record is a game
# (records.check) and not one already stored under another number; what
# fails a record's checks is kept apart with the reason, never lost, and a
# record at or below what the database holds is one sent again (an answer
# the board never got), skipped.
import json
from typing import Any, NamedTuple

from cribboard import store
from cribboard.records import SAME_GAME, BadRecord, Game, Reason, check, out_of_order
from cribboard.store.engine import Database


class BadBatch(ValueError):
    """A batch whose numbering no board's log has: nothing of it is taken."""


class Sorted(NamedTuple):
    games: list[tuple[int, Game]]  # to store
    apart: list[tuple[int, Reason, str]]  # (seq, reason, raw): to keep apart
    again: list[int]  # seqs the database holds already


def sort(db: Database, board: str, records: list[tuple[Any, str]], last: int | None = None) -> Sorted:
    """The batch [(seq, record's JSON text)] sorted; BadBatch if its numbers are
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
    since = store.games.last_seq(db, board)
    games, apart, again = [], [], []
    batch: dict[tuple[int, int, str], int] = {}  # a game of this batch -> its seq
    for seq, text in records:
        if seq <= since:
            again.append(seq)
            continue
        try:
            game = check(text)
        except BadRecord as e:
            apart.append((seq, e.args[0], text))
            continue
        rec = game.record
        key = (rec["match"], rec["game_no"], json.dumps(rec["events"]))
        twin = batch.get(key) or store.games.twin(db, board, seq, game)
        if twin is not None:
            apart.append((seq, Reason(SAME_GAME, seq=twin), text))
            continue
        batch[key] = seq
        games.append((seq, game))
    return Sorted(games, apart, again)


def _show(v: Any) -> str:
    text = json.dumps(v)
    return text if len(text) <= 24 else text[:21] + "..."
