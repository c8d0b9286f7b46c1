# Reading a board's layout.json (or the reference layout made here): the
# runs expanded LED by LED into cribcore.layout.Layout's tables, and every
# mistake named. A board loads this while it is built and then forgets it.
from array import array

from cribcore import CoreError, const
from cribcore.game import STREET
from cribcore.layout import DEALER, GAME, GAME_POINT_LEDS, HOLE, HOLES, NO_LED, POINTS

_TYPE_CHECKING = const(0)  # typing's, folded away on a board (cribcore.record says how)
if _TYPE_CHECKING:
    from cribcore.layout import Layout

# The codes of cribcore.messages.
_NOT_OBJECT = const(1101)
_TRACKS = const(1102)
_LEDS = const(1103)
_RUNS = const(1104)
_TOO_MANY = const(1105)
_TWO_LEDS = const(1106)
_LEDS_SAY = const(1107)
_NO_LED = const(1108)
_NO_DEALER_LED = const(1109)
_NO_POINT_LED = const(1110)
_RUN_NOT_OBJECT = const(1111)
_RUN_TRACK = const(1112)
_RUN_KIND = const(1113)
_RUN_RANGE = const(1114)
_REFERENCE = const(1115)
_DEALER_LED = const(1116)
_GAME_POINT = const(1117)
_GAME_HOLE = const(1118)
_HOLE = const(1119)


def place(layout: "Layout", data: object) -> None:
    """Fill layout's tables from a layout's data (Layout(data) calls this)."""
    if not isinstance(data, dict):
        raise CoreError(_NOT_OBJECT, ())
    layout.name = str(data.get("name", "unnamed"))
    tracks = data.get("tracks")
    n = data.get("leds")
    runs = data.get("runs")
    if not isinstance(tracks, int) or not (2 <= tracks <= 3):
        raise CoreError(_TRACKS, (layout.name, tracks))
    if not isinstance(n, int) or not (0 < n < NO_LED):
        raise CoreError(_LEDS, (layout.name, n))
    if not isinstance(runs, list):
        raise CoreError(_RUNS, (layout.name,))
    layout.n = n
    layout.tracks = tracks
    layout.hole = [array("H", [NO_LED] * (HOLES + 1)) for _ in range(tracks)]
    layout.dealer = array("H", [NO_LED] * tracks)
    layout.points = [array("H", [NO_LED] * GAME_POINT_LEDS) for _ in range(tracks)]
    free = array("H", [NO_LED] * (HOLES + 1))  # a run's slots, all still empty
    index = 0
    for number in range(len(runs)):
        kind, track, first, last = _run(runs[number], number, tracks)
        step = 1 if last >= first else -1
        table, shift = _table(layout, kind, track)
        count = (last - first) * step + 1
        low = (first if step > 0 else last) + shift
        if index + count <= n and table[low : low + count] == free[:count]:
            # Fits, and every slot is free: numbered in one slice, not an LED
            # at a time (a board places its whole strip at every power-up,
            # where each pass of a Python loop costs microseconds).
            if step > 0:
                table[low : low + count] = array("H", range(index, index + count))
            else:
                table[low : low + count] = array("H", range(index + count - 1, index - 1, -1))
            index += count
            continue
        for k in range(first, last + step, step):  # one LED at a time, to name the first mistake
            if index >= n:
                raise CoreError(_TOO_MANY, (layout.name, n))
            slot = k + shift
            if table[slot] != NO_LED:
                raise CoreError(_TWO_LEDS, (layout.name, track + 1, _role_name(kind, k), table[slot], index))
            table[slot] = index
            index += 1
    if index != n:
        raise CoreError(_LEDS_SAY, (layout.name, n, index))
    if n == tracks * (HOLES + 1 + GAME_POINT_LEDS):
        return  # every LED in a slot of its own, and as many LEDs as slots: none is empty
    for t in range(tracks):
        for h in range(1, HOLES + 1):
            if layout.hole[t][h] == NO_LED:
                raise CoreError(_NO_LED, (layout.name, t + 1, _role_name(HOLE, h)))
        if layout.dealer[t] == NO_LED:
            raise CoreError(_NO_DEALER_LED, (layout.name, t + 1))
        for k in range(GAME_POINT_LEDS):
            if layout.points[t][k] == NO_LED:
                raise CoreError(_NO_POINT_LED, (layout.name, t + 1, k + 1))


def _table(layout: "Layout", kind: str, track: int):  # -> (the table: an array, the slot shift)
    """The table a run's LEDs go in, and what turns a run's number into a slot."""
    if kind == HOLE or kind == GAME:
        return layout.hole[track], 0
    if kind == DEALER:
        return layout.dealer, track
    return layout.points[track], -1


def _role_name(role: str, k: int) -> CoreError:
    """An LED's role, as a phrase of a CoreError."""
    if role == DEALER:
        return CoreError(_DEALER_LED, ())
    if role == POINTS:
        return CoreError(_GAME_POINT, (k,))
    return CoreError(_GAME_HOLE, ()) if k == HOLES else CoreError(_HOLE, (k,))


def _run(run: object, number: int, tracks: int) -> tuple[str, int, int, int]:
    """(kind, track, first, last) of one run: its LEDs are numbered first..last
    in strip order (a game hole is 121, a dealer LED 0)."""
    if not isinstance(run, dict):
        raise CoreError(_RUN_NOT_OBJECT, (number,))
    kind = run.get("kind")
    track = run.get("track")
    if not isinstance(track, int) or not (0 <= track < tracks):
        raise CoreError(_RUN_TRACK, (number, tracks - 1, track))
    if kind == GAME:
        return GAME, track, HOLES, HOLES
    if kind == DEALER:
        return DEALER, track, 0, 0
    if kind != HOLE and kind != POINTS:
        raise CoreError(_RUN_KIND, (number, kind))
    first = run.get("from")
    last = run.get("to")
    top = HOLES - 1 if kind == HOLE else GAME_POINT_LEDS
    if not isinstance(first, int) or not isinstance(last, int) or not (1 <= first <= top and 1 <= last <= top):
        raise CoreError(_RUN_RANGE, (number, top, first, last))
    return kind, track, first, last


def _row(kind: str, track: int, first: int, last: int, x: int, y: int) -> dict[str, object]:
    return {"kind": kind, "track": track, "from": first, "to": last, "x": x, "y": y, "dx": 1 if last >= first else -1}


def standard(tracks: int) -> dict[str, object]:
    """The reference board: a row of 30 holes per street and track, tracks
    side by side, streets running right and left in turn (the peg path of a
    wooden board); the strip snakes row by row, so every other row counts
    down. Game holes and dealer LEDs sit in column 0, game points below."""
    if tracks not in (2, 3):
        raise CoreError(_REFERENCE, (tracks,))
    runs = []
    left_to_right = True
    for street in range(4):
        for t in range(tracks):
            y = street * (tracks + 1) + t
            low, high = street * STREET + 1, street * STREET + STREET
            path_right = street % 2 == 0  # the pegs' way along this street
            # The strip enters at x=1 going right, or at x=30 going left.
            first, last = (low, high) if path_right == left_to_right else (high, low)
            run = _row(HOLE, t, first, last, 1 if left_to_right else STREET, y)
            run["dx"] = 1 if left_to_right else -1
            runs.append(run)
            left_to_right = not left_to_right
    top = 3 * (tracks + 1)
    for t in range(tracks - 1, -1, -1):
        runs.append({"kind": GAME, "track": t, "x": 0, "y": top + t})
    for t in range(tracks):
        runs.append({"kind": DEALER, "track": t, "x": 0, "y": t})
    for t in range(tracks):
        y = 4 * (tracks + 1) + t
        runs.append(_row(POINTS, t, 1, GAME_POINT_LEDS, 1, y))
    leds = tracks * (HOLES + 1 + GAME_POINT_LEDS)
    return {"name": "%d-track" % tracks, "tracks": tracks, "leds": leds, "runs": runs}
