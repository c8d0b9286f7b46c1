# One push button, polled: debounced, then turned into gestures. A point
# button fires on the press and repeats while held, faster after a second;
# the others tell a tap from a long press. A button already held when the
# board starts does nothing until it has been let go. A button with a long
# press says HOLD part way there, so the app can ready what a long press
# needs (OK's menu, loaded from the flash) before it is decided.
from cribapp.compat import const

NONE = const(0)
PRESS = const(1)
REPEAT = const(2)
TAP = const(3)
LONG = const(4)
HOLD = const(5)  # held past _HOLD_MS: a long press may follow (a tap still may too)


# Timings, const: polled every loop pass, so no lookups and no names kept.
_DEBOUNCE_MS = const(20)  # a level must hold this long to count
_HOLD_MS = const(300)  # longer than a tap takes, well before a long press
_LONG_MS = const(700)  # a long press (OK: the menu, UNDO: redo, SKUNK: the match view)
_REPEAT_DELAY_MS = const(500)  # a held point button repeats after this
_REPEAT_MS = const(250)  # ... every this long
_FAST_AFTER_MS = const(1500)  # ... and after this long held
_FAST_REPEAT_MS = const(100)  # ... every this long


class Button:
    def __init__(self, name, read, repeats=False):
        self.name = name
        self.read = read  # zero-argument callable: True while pressed
        self.repeats = repeats
        self.pressed = False
        self.held_at_start = False
        self._raw = False
        self._raw_at = 0
        self._started = False
        self._down_at = 0
        self._next = 0  # next repeat, or the long-press moment
        self._long_done = False

    def poll(self, now, diff):
        """The gesture completed at time now, or NONE. diff is ticks_diff."""
        raw = bool(self.read())
        if not self._started:
            self._started = True
            self._raw = raw
            self._raw_at = now
            self.pressed = raw
            self.held_at_start = raw
            return NONE
        if raw != self._raw:
            self._raw = raw
            self._raw_at = now
        elif raw != self.pressed and diff(now, self._raw_at) >= _DEBOUNCE_MS:
            self.pressed = raw
            return self._edge(now)
        if self.pressed and raw and not self.held_at_start:  # still held: a level already let go repeats nothing,
            return self._held(now, diff)  # however late this pass came (a tap read again after a slow pass)
        return NONE

    def _edge(self, now):
        if not self.pressed:
            was_stuck = self.held_at_start
            self.held_at_start = False
            if was_stuck or self.repeats or self._long_done:
                return NONE
            return TAP
        if self.held_at_start:
            return NONE
        self._down_at = self._raw_at  # when the finger went down: a hold is timed from there to its let-go
        self._long_done = False
        if self.repeats:
            self._next = _REPEAT_DELAY_MS
            return PRESS
        self._next = _HOLD_MS
        return NONE

    def _held(self, now, diff):
        held = diff(now, self._down_at)
        if held < self._next:
            return NONE
        if self.repeats:
            self._next += _FAST_REPEAT_MS if held >= _FAST_AFTER_MS else _REPEAT_MS
            return REPEAT
        if self._next == _HOLD_MS:
            self._next = _LONG_MS
            return HOLD
        if not self._long_done:
            self._long_done = True
            return LONG
        return NONE


class Keypad:
    """Polls every button in turn; one gesture per poll, as an int:
    button index * 8 + gesture (no allocation on the hot path)."""

    def __init__(self, buttons):
        self.buttons = buttons
        self._next = 0

    def poll(self, now, diff):
        n = len(self.buttons)
        for _ in range(n):
            i = self._next
            self._next = (i + 1) % n
            g = self.buttons[i].poll(now, diff)
            if g:
                return i * 8 + g
        return 0
