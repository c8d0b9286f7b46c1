# Stand-in for CircuitPython's supervisor: ticks_ms() wraps at 2**29, as there.
import simcp

_PERIOD = 1 << 29


def ticks_ms():
    return simcp.ms() & (_PERIOD - 1)


class Reload(Exception):
    """supervisor.reload(): CircuitPython runs code.py again (the stand-in
    board, cpboard.py, does so when this reaches it)."""


def reload():
    raise Reload()
