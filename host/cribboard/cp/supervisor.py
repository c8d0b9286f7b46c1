# Stand-in for CircuitPython's supervisor: ticks_ms() wraps at 2**29, as there.
import simcp

_PERIOD = 1 << 29


def ticks_ms():
    return simcp.ms() & (_PERIOD - 1)


class Reload(BaseException):
    """supervisor.reload(): CircuitPython runs code.py again (the stand-in
    board, cpboard.py, does so when this reaches it). As CircuitPython 10's
    reload, it is not an Exception: no `except Exception` on its way stops
    it."""


def reload():
    raise Reload()
