# A board on a page, seen and not pressed: what a board with a given saved
# state shows (its LEDs, drawn by the firmware's own renderer, and its
# scoreboard), whether the state came over USB (cribboard.link.live) or over the
# club's WiFi (cribboard.club).
from typing import Any

from cribboard.boardapp import Renderer, restore_session, session_of, tally, view_for
from cribboard.errors import SimError
from cribboard.text.i18n import N_
from cribboard.web import scoreboard
from cribcore.config import Config
from cribcore.layout import Layout
from cribcore.layoutfile import standard

_DARK = (0, 0, 0)


class _Frame:
    """A pixel sink that keeps the last frame written, each LED an (r, g, b) the renderer gave (its
    palette's: never changed, so kept as given, not copied: a club's server draws a frame a report)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self._next: list[tuple[int, int, int]] = [_DARK] * n
        self.leds: list[tuple[int, int, int]] = [_DARK] * n

    def __setitem__(self, i: int, rgb: tuple[int, int, int]) -> None:
        self._next[i] = rgb

    def write(self) -> None:
        self.leds = list(self._next)


_LAYOUTS: dict[int, tuple[dict[str, Any], Layout]] = {}  # the standard layout by tracks, built once
_CONFIG = Config()  # the default board's (a renderer reads it, never changes it): read once


def _layout(tracks: int) -> tuple[dict[str, Any], Layout]:
    if tracks not in _LAYOUTS:
        data = standard(tracks)
        _LAYOUTS[tracks] = (data, Layout(data))
    return _LAYOUTS[tracks]


def draw(state: dict[str, Any], session: Any = None) -> tuple[dict[str, Any], list[tuple[int, int, int]]]:
    """The layout and the LEDs a board with this state shows (between blinks); session: the state's, if
    it was restored already."""
    if session is None:
        session = session_of(state)
    match = session.match
    g = match.game
    layout_data, layout = _layout(3 if g.sides == 3 else 2)
    frame = _Frame(layout.n)
    r = Renderer(layout, frame, _CONFIG, state.get("brightness", 3))
    r.begin()
    view_for(match).board(r, match, tally(match), 1, show=session.showing())
    r.finish()
    return layout_data, frame.leds


Drawn = tuple[dict[str, Any], dict[str, Any], list[tuple[int, int, int]]]


def drawn(state: Any) -> Drawn:
    """(scoreboard, layout, LEDs) of a board's state; ValueError if it is not a board's."""
    try:
        session = scoreboard.restored(state)  # (once: the scoreboard and the drawing read the same)
        view = scoreboard.view_of(session, state)
        layout, leds = draw(state, session)
    except (KeyError, TypeError, IndexError) as e:
        raise ValueError("not a board's state: %s" % e) from None
    return view, layout, leds


class _Fields:
    """What a board's restore sets from a state beside its session (boot, brightness...): here only checked."""

    brightness = 3


def checked(state: Any) -> dict[str, Any]:
    """The scoreboard of a board's state, checked as far as drawing it needs: as the board checks its own
    at power-up (cribapp.restore: its session and its fields, brightness the renderer's one other input),
    and its match read as the scoreboard reads it (a result the board would never write fails there). What
    a club's server checks a live state with before it keeps it, to draw its LEDs when a page asks
    (drawn): a state that passes draws (tests/host/test_club_states.py). ValueError if it is not a
    board's."""
    try:
        return scoreboard.view_of(restore_session(state, 3, _Fields()), state)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
        raise ValueError("not a board's state: %s" % e) from None


class SeenBoard:
    """A real board on the page, seen and not pressed (its buttons are at
    the table): the interface web.make_server serves, from the last state
    shown."""

    def __init__(self, layout: dict[str, Any]) -> None:
        self.layout = layout
        self.frames = 0
        self._leds: list[tuple[int, int, int]] = []
        self._view: dict[str, Any] | None = None

    def show(self, seen: Drawn) -> None:
        self._view, self.layout, self._leds = seen
        self.frames += 1

    def buttons(self) -> list[str]:
        return []

    def leds(self) -> list[tuple[int, int, int]]:
        return self._leds

    def press(self, button: Any, gesture: Any) -> None:
        raise SimError(N_("a real board's buttons are at the table"))  # English: the page says it in its own

    def scoreboard(self) -> dict[str, Any] | None:
        return self._view
