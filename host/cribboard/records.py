# What the host accepts from a board. A record's line passed its CRC, so it
# is what the board meant to send; whether it is a game is another matter.
# Every record is replayed through the core (replay.load_game: the rules,
# the result, the skunk) and its numbers kept within what the database
# holds. A record that fails is not a game: it is kept apart, raw, with the
# reason (store.games.add), and never lost. A batch's numbering is checked
# here too (in_order), by the one rule for a USB sync's listing and a WiFi
# report, so the two ways in cannot drift.
import json
import re
from dataclasses import dataclass
from typing import Any

from cribboard.text.error_words import Gettext, core_from_data, said
from cribboard.text.i18n import N_, _
from cribcore import CoreError
from cribcore.names import check_names, default_name
from cribrules.replay import load_game

MAX_INT = 2**31 - 1  # an INTEGER column on PostgreSQL
MAX_DEPTH = 16  # a record nests 3 deep (events: a list of lists); deeper, and no game: refused before it is parsed


# Why a record is kept apart: the English templates (said in the reader's language from a reason's data,
# and only these: a reason's data read back from the database names one of them).
NOT_WHOLE = N_("%(field)s is %(given)s, not a whole number from %(low)d to %(high)d")
NOT_JSON = N_("not JSON (%(error)s)")
NOT_OBJECT = N_("not a JSON object but %(kind)s")
TOO_LONG = N_("the board could not send it: %(size)s bytes, more than one line of the link holds")
BAD_WALL = N_("wall is %(given)s, not [unix seconds, ticks]")
TICKS_PAST = N_("an event's ticks %(ticks)d are past %(most)d")
NO_REPLAY = N_("does not replay: %(problem)s")
WRONG_SCORES = N_("scores %(given)s, but its events make %(made)s")
BAD_RESULT = N_("match_result is %(given)s")
BAD_NAMES = N_("names: %(problem)s")
SAME_GAME = N_("the same game as record %(seq)d")
TOO_DEEP = N_("nests deeper than %(most)d")
NOT_AS_STORED = N_(
    "record %(seq)d again, but not as this database holds it (a log the board's firmware made anew without "
    "an id, or another board with the same id): kept apart, the stored one kept"
)
REASONS = frozenset(
    [
        NOT_WHOLE,
        NOT_JSON,
        NOT_OBJECT,
        TOO_LONG,
        BAD_WALL,
        TICKS_PAST,
        NO_REPLAY,
        WRONG_SCORES,
        BAD_RESULT,
        BAD_NAMES,
        SAME_GAME,
        TOO_DEEP,
        NOT_AS_STORED,
    ]
)


class Reason(str):
    """Why a record is not a game: English text (what the database's reason column and the logs keep), and
    as data (`data`: its template and values, a rule's refusal among them as {"e": [code, values]}) to say
    in the reader's language (said_reason, below)."""

    data: dict[str, Any] | None

    def __new__(cls, template: str, **values: Any) -> "Reason":
        english = template % {k: str(v) if isinstance(v, BaseException) else v for k, v in values.items()}
        made = super().__new__(cls, english)
        made.data = {"m": template, "v": {k: as_data(v) for k, v in values.items()}}
        try:
            json.dumps(made.data)
        except (TypeError, ValueError):  # a value JSON cannot hold: the English alone
            made.data = None
        return made


def as_data(value: Any) -> Any:
    """A reason's value as JSON holds it: a rule's refusal (a CoreError) as {"e": [code, values]}, any
    other exception as its English text."""
    if isinstance(value, CoreError):
        args: tuple[Any, ...] = value.args
        return {"e": [args[0], [as_data(v) for v in (args[1] if len(args) > 1 else ())]]}
    if isinstance(value, BaseException):
        return str(value)
    return value


class BadRecord(ValueError):
    """Why a record is not a game (args[0]: a Reason)."""

    def __init__(self, template: str, **values: Any) -> None:
        super().__init__(Reason(template, **values))


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
class CheckedGame:
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
        raise BadRecord(NOT_WHOLE, field=name, given=_show(v), low=low, high=MAX_INT)


def _show(v: Any) -> str:
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


# A JSON string, or one the text's end cuts off (the loop unrolled: each byte tried once, whatever follows).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.S)
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")


def json_depth(data: bytes | str) -> int:
    """How deep a JSON text nests (brackets outside strings), without parsing it (json.loads recurses).
    The strings cut out and the brackets kept by the C of re and bytes (a report's every byte in a loop
    of Python's was a twentieth of a club's request)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    depth = deepest = 0
    for c in _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS):
        if c in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def parsed(body: str) -> Any:
    """A record's JSON text read; BadRecord if it nests deeper than any record or is not JSON."""
    if json_depth(body) > MAX_DEPTH:
        raise BadRecord(TOO_DEEP, most=MAX_DEPTH)
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as e:
        raise BadRecord(NOT_JSON, error=e) from None


def check(body: str) -> CheckedGame:
    """The game a record's JSON text holds; BadRecord says why it holds none."""
    rec = parsed(body)
    if not isinstance(rec, dict):
        raise BadRecord(NOT_OBJECT, kind=type(rec).__name__)
    if set(rec) == {"too_long"}:
        raise BadRecord(TOO_LONG, size=_show(rec["too_long"]))
    _whole(rec, "match", 0)
    _whole(rec, "game_no", 1)
    for name in ("boot", "ticks"):
        _whole(rec, name, 0, required=False)
    wall = rec.get("wall")
    if wall is not None and not (
        isinstance(wall, list) and len(wall) == 2 and all(type(w) is int and 0 <= w <= 2**40 for w in wall)
    ):
        raise BadRecord(BAD_WALL, given=_show(wall))
    events = rec.get("events")
    if isinstance(events, list):
        for e in events:
            if isinstance(e, list) and len(e) == 4 and type(e[3]) is int and e[3] > MAX_INT:
                raise BadRecord(TICKS_PAST, ticks=e[3], most=MAX_INT)
    try:
        game = load_game(rec)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as e:
        raise BadRecord(NO_REPLAY, problem=e) from None
    scores = game.scores()
    if rec.get("scores") != scores:
        raise BadRecord(WRONG_SCORES, given=_show(rec.get("scores")), made=str(scores))
    mr = rec.get("match_result")
    if mr is not None and not (
        isinstance(mr, dict)
        and (mr.get("winner") is None or (type(mr.get("winner")) is int and 0 <= mr["winner"] < len(scores)))
    ):
        raise BadRecord(BAD_RESULT, given=_show(mr))
    names = rec.get("names")
    if names is None:
        names = [default_name(t) for t in range(len(scores))]
    else:
        try:
            check_names(names, len(scores))  # (a lone surrogate too: no text a database keeps)
        except ValueError as e:
            raise BadRecord(BAD_NAMES, problem=e) from None
    return CheckedGame(rec, rec["game"], names, scores)


def said_reason(english: str, data: str | None, gettext: Gettext = _) -> str:
    """Why a record was kept apart, in gettext's language: from the reason's data (records.Reason) if it
    was kept with it and is one of the host's reasons, else its English (an older cribboard kept none)."""
    try:
        kept = json.loads(data) if data else None
        template, values = kept["m"], kept["v"]  # type: ignore[index]
        if template not in REASONS or not isinstance(values, dict):
            return english
        said_values = {}
        for k, v in values.items():
            if isinstance(v, dict):
                v = core_from_data(v.get("e"))
                if v is None:
                    return english
                v = said(v, gettext)
            said_values[k] = v
        return gettext(template) % said_values
    except (ValueError, TypeError, KeyError, RecursionError):
        return english
