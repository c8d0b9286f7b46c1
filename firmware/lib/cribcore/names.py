# Player (or team) names, one rule for the board and the host: 1 to 24
# characters of printable text, no control characters, no spaces at either
# end. Unicode is welcome (José, Zoë, 陈); what is refused is what could
# break a line, a terminal or a table: C0 and C1 controls, line and
# paragraph separators, and the bidirectional overrides that can make a
# name display as another.
from cribcore import CoreError, const

MAX_NAME = 24

# The codes of cribcore.messages.
_TRACKS = const(501)
_NAME_N = const(502)
_NOT_TEXT = const(503)
_EMPTY = const(504)
_TOO_LONG = const(505)
_SPACES = const(506)
_CONTROL = const(507)


def default_name(track: int) -> str:
    """What a board that was never given names calls track (0-based)."""
    return "Track %d" % (track + 1)


def names_for(given: list[str] | None, tracks: int) -> list[str]:
    """The names of `tracks` tracks: those given (a list, or None for a board
    never given names), "Track N" for any missing."""
    given = given or []
    return [given[t] if t < len(given) else default_name(t) for t in range(tracks)]


def name_problem(name: object) -> CoreError | None:
    """None for a good name; else why it is refused: a CoreError, not raised
    (its str() is a few English words; the host says them in its language)."""
    if not isinstance(name, str):
        return CoreError(_NOT_TEXT, ())
    if not name or not name.strip():
        return CoreError(_EMPTY, ())
    if len(name) > MAX_NAME:
        return CoreError(_TOO_LONG, (len(name), MAX_NAME))
    if name != name.strip():
        return CoreError(_SPACES, ())
    for ch in name:
        c = ord(ch)
        if 0xD800 <= c <= 0xDFFF:  # a lone surrogate (CPython's for bytes no text decodes to): no text to keep
            return CoreError(_NOT_TEXT, ())
        # C0 and C1 controls, line and paragraph separators, bidi overrides (a
        # literal: a module-level tuple would keep its name on a board's heap)
        for low, high in (
            (0x00, 0x1F),
            (0x7F, 0x9F),
            (0x2028, 0x2029),
            (0x202A, 0x202E),
            (0x2066, 0x2069),
            (0xFEFF, 0xFEFF),
        ):
            if low <= c <= high:
                return CoreError(_CONTROL, (c,))
    return None


def check_names(names: object, tracks: int) -> list[str]:
    """The names of a match's tracks, checked; ValueError says which and why."""
    if not isinstance(names, list) or len(names) != tracks:
        raise CoreError(_TRACKS, (tracks,))
    for i in range(tracks):
        problem = name_problem(names[i])
        if problem:
            raise CoreError(_NAME_N, (i + 1, problem))
    return names
