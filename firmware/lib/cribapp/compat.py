# The one place that differs between MicroPython and CPython: const and the
# ticks arithmetic. CPython gets MicroPython's semantics, wrap-around included.
# The type checker sees the board's signatures; the CPython stand-ins differ.
# pyright: reportAssignmentType=false, reportAttributeAccessIssue=false
try:
    from micropython import const
except ImportError:

    def const(x):
        return x


try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:
    import time as _time

    TICKS_PERIOD = 1 << 30
    _MASK = TICKS_PERIOD - 1
    _HALF = TICKS_PERIOD // 2

    def ticks_ms():
        return int(_time.monotonic() * 1000) & _MASK

    def ticks_add(ticks, delta):
        return (ticks + delta) & _MASK

    def ticks_diff(end, start):
        return ((end - start + _HALF) & _MASK) - _HALF


__all__ = ["const", "ticks_add", "ticks_diff", "ticks_ms"]
