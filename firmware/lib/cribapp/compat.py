# The one place that differs between MicroPython and CPython: const and the
# ticks arithmetic. CPython gets MicroPython's semantics, wrap-around included.
# The type checker sees the board's signatures; the CPython stand-ins differ.
# pyright: reportAssignmentType=false, reportAttributeAccessIssue=false
try:
    from micropython import const
except ImportError:

    def const(x):
        return x


TICKS_PERIOD = const(1 << 30)  # MicroPython's ticks_ms() wraps here, on every port


class Ticks:
    """MicroPython's ticks arithmetic for a millisecond counter `now()` that
    wraps at `period`, a power of two. A clock the app can be given:
    CircuitPython's supervisor.ticks_ms() wraps at 2**29, not 2**30."""

    def __init__(self, period=TICKS_PERIOD, now=None):
        self.TICKS_PERIOD = period
        self._mask = period - 1
        self._half = period // 2
        self._now = now or self._no_counter

    def _no_counter(self):
        raise ValueError("this Ticks was given no counter: it does the arithmetic only")

    def ticks_ms(self):
        return self._now() & self._mask

    def ticks_add(self, ticks, delta):
        return (ticks + delta) & self._mask

    def ticks_diff(self, end, start):
        return ((end - start + self._half) & self._mask) - self._half


try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:
    import time as _time

    _clock = Ticks(TICKS_PERIOD, lambda: int(_time.monotonic() * 1000))
    ticks_ms = _clock.ticks_ms
    ticks_add = _clock.ticks_add
    ticks_diff = _clock.ticks_diff


__all__ = ["TICKS_PERIOD", "Ticks", "const", "ticks_add", "ticks_diff", "ticks_ms"]
