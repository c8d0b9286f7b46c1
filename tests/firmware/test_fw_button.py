# Buttons: debounce, tap and long press, repeat while held, held at start.
from cribapp.button import HOLD, LONG, NONE, PRESS, REPEAT, TAP, Button, Keypad
from cribcore import TICKS_PERIOD

from rig import FakeClock


class Finger:
    """A button's contact, pressed or not, bouncing if a test says so."""

    def __init__(self):
        self.down = False

    def read(self):
        return self.down


def drive(button, finger, clock, pattern):
    """pattern: (pressed, ms) pairs; polls every 1 ms; returns the gestures."""
    out = []
    for pressed, ms in pattern:
        finger.down = pressed
        for _ in range(ms):
            clock.advance(1)
            g = button.poll(clock.ticks_ms(), clock.ticks_diff)
            if g:
                out.append(g)
    return out


def setup(repeats=False, held=False):
    f = Finger()
    f.down = held
    clock = FakeClock()
    b = Button("OK", f.read, repeats)
    b.poll(clock.ticks_ms(), clock.ticks_diff)  # the first poll only learns the level
    return b, f, clock


def test_a_tap_and_a_long_press():
    b, f, clock = setup()
    assert drive(b, f, clock, [(False, 50), (True, 100), (False, 50)]) == [TAP]
    assert drive(b, f, clock, [(True, 1500), (False, 50)]) == [HOLD, LONG]
    # Held past a tap's time, let go before a long press: HOLD (the app readies the menu), then a tap.
    assert drive(b, f, clock, [(True, 299), (False, 50)]) == [TAP]
    assert drive(b, f, clock, [(True, 302), (False, 50)]) == [HOLD, TAP]
    assert drive(b, f, clock, [(True, 698), (False, 50)]) == [HOLD, TAP]


def test_bounce_never_counts_twice():
    b, f, clock = setup()
    chatter = [(True, 2), (False, 3), (True, 1), (False, 2), (True, 80), (False, 4), (True, 3), (False, 60)]
    assert drive(b, f, clock, chatter) == [TAP]


def test_a_glitch_shorter_than_the_debounce_is_ignored():
    b, f, clock = setup()
    assert drive(b, f, clock, [(True, 10), (False, 100)]) == []


def test_point_buttons_repeat_and_speed_up():
    b, f, clock = setup(repeats=True)
    got = drive(b, f, clock, [(True, 3000), (False, 50)])
    assert got[0] == PRESS
    repeats = len(got) - 1
    # Held 2.98 s once the press registers: repeats at 0.5, 0.75, 1.0, 1.25
    # and 1.5 s, then every 0.1 s from 1.6 to 2.9 s.
    assert got[1:] == [REPEAT] * repeats
    assert repeats == 5 + 14, repeats


def test_a_tap_read_again_only_after_a_slow_pass_is_one_press_and_never_a_repeat_or_a_long_press():
    # The loop was held up (a slow save, a busy host for a simulated board) while the finger let go: the
    # next read, 800 ms on, is the release. Held that long as far as the clock knows, but let go: no
    # REPEAT, no LONG, whatever the timings say.
    for repeats, want in ((True, [PRESS]), (False, [TAP])):
        b, f, clock = setup(repeats)
        got = []
        for down, ms in ((True, 0), (True, 25), (False, 800), (False, 25)):  # the debounce's time apart
            f.down = down
            clock.advance(ms)
            g = b.poll(clock.ticks_ms(), clock.ticks_diff)
            if g:
                got.append(g)
        assert got == want, (repeats, got)


def test_a_button_held_at_power_up_does_nothing_until_released():
    b, f, clock = setup(held=True)
    assert b.held_at_start
    assert drive(b, f, clock, [(True, 2000), (False, 100)]) == []
    assert drive(b, f, clock, [(True, 60), (False, 60)]) == [TAP]


def test_keypad_reports_each_button_and_two_at_once():
    f1, f2 = Finger(), Finger()
    pad = Keypad([Button("P1", f1.read, True), Button("OK", f2.read)])
    clock = FakeClock()
    got = []
    for ms in range(200):
        f1.down = 10 <= ms < 100
        f2.down = 20 <= ms < 120
        clock.advance(1)
        for _ in range(2):
            ev = pad.poll(clock.ticks_ms(), clock.ticks_diff)
            if ev:
                got.append((ev >> 3, ev & 7))
    assert got == [(0, PRESS), (1, TAP)]
    assert pad.poll(clock.ticks_ms(), clock.ticks_diff) == NONE  # nothing more to report


def test_the_test_clock_wraps_at_the_boards_period_on_every_runtime():
    # The 64-bit unix port's own ticks never wrap at 2**30; the clock the
    # firmware tests drive does, there too, and at 2**29 for CircuitPython.
    for period in (TICKS_PERIOD, 1 << 29):
        clock = FakeClock(period=period)
        assert clock.ticks_add(5, -10) == period - 5
        assert clock.ticks_add(period - 1, 10) == 9
        assert clock.ticks_diff(9, period - 1) == 10
        assert clock.ticks_diff(period - 1, 9) == -10
        start = clock.ticks_ms()
        clock.advance(10000)  # FakeClock starts 5 s before the wrap
        assert clock.ticks_ms() < start
        assert clock.ticks_diff(clock.ticks_ms(), start) == 10000
