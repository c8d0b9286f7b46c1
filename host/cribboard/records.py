# What the host accepts from a board. A record's line passed its CRC, so it
# is what the board meant to send; whether it is a game is another matter.
# Every record is replayed through the core (replay.load_game: the rules,
# the result, the skunk) and its numbers kept within what the database
# holds. A record that fails is not a game: it is kept apart, raw, with the
# reason (store.games.add), and never lost. A batch's numbering is checked
# here too (in_order), by the one rule for a USB sync's listing and a WiFi
# report, so the two ways in cannot drift.
import json
from dataclasses import dataclass
from typing import Any

from cribcore.names import check_names, default_name
from cribcore.replay import load_game

MAX_INT = 2**31 - 1  # an INTEGER column on PostgreSQL


class BadRecord(ValueError):
    """Why a record is not a game."""


def out_of_order(seqs: list[Any], since: int, last: int | None = None) -> int | None:
    """Where a batch's record numbers stop being a board's: the index of the
    first that is not a whole number from 1 to MAX_INT, after the one before
    it (the first after `since`, what the asker already holds), and at most
    `last` (the board's last record, when it says); None if all are. Gaps
    are a board's: it skips a record its log could not give back (a torn
    line), over USB and WiFi alike."""
    previous = since
    for i, seq in enumerate(seqs):
        if type(seq) is not int or not previous < seq <= MAX_INT or (last is not None and seq > last):
            return i
        previous = seq
    return None


@dataclass
class Game:
    """A record that replays, with what the database stores of it."""
    record: dict[str, Any]
    kind: str  # "cribbage" or "piquet"
    names: list[str]  # one a track, as the board reported them (or "Track N")
    scores: list[int]


def _whole(rec: dict[str, Any], name: str, low: int, required: bool = True) -> None:
    v = rec.get(name)
    if v is None and not required:
        return
    if type(v) is not int or not low <= v <= MAX_INT:
        raise BadRecord("%s is %s, not a whole number from %d to %d" % (name, _show(v), low, MAX_INT))


def _show(v: Any) -> str:
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


def check(body: str) -> Game:
    """The game a record's JSON text holds; BadRecord says why it holds none."""
    try:
        rec = json.loads(body)
    except ValueError as e:
        raise BadRecord("not JSON (%s)" % e) from None
    if not isinstance(rec, dict):
        raise BadRecord("not a JSON object but %s" % type(rec).__name__)
    if set(rec) == {"too_long"}:
        raise BadRecord("the board could not send it: %s bytes, more than one line of the link holds"
                        % _show(rec["too_long"]))
    _whole(rec, "match", 0)
    _whole(rec, "game_no", 1)
    for name in ("boot", "ticks"):
        _whole(rec, name, 0, required=False)
    wall = rec.get("wall")
    if wall is not None and not (isinstance(wall, list) and len(wall) == 2
                                 and all(type(w) is int and 0 <= w <= 2**40 for w in wall)):
        raise BadRecord("wall is %s, not [unix seconds, ticks]" % _show(wall))
    events = rec.get("events")
    if isinstance(events, list):
        for e in events:
            if isinstance(e, list) and len(e) == 4 and type(e[3]) is int and e[3] > MAX_INT:
                raise BadRecord("an event's ticks %d are past %d" % (e[3], MAX_INT))
    try:
        game = load_game(rec)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as e:
        raise BadRecord("does not replay: %s" % e) from None
    scores = game.scores()
    if rec.get("scores") != scores:
        raise BadRecord("scores %s, but its events make %s" % (_show(rec.get("scores")), scores))
    mr = rec.get("match_result")
    if mr is not None and not (isinstance(mr, dict) and (mr.get("winner") is None or (
            type(mr.get("winner")) is int and 0 <= mr["winner"] < len(scores)))):
        raise BadRecord("match_result is %s" % _show(mr))
    names = rec.get("names")
    if names is None:
        names = [default_name(t) for t in range(len(scores))]
    else:
        try:
            check_names(names, len(scores))  # (a lone surrogate too: no text a database keeps)
        except ValueError as e:
            raise BadRecord("names: %s" % e) from None
    return Game(rec, rec["game"], names, scores)
