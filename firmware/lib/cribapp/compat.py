# The one place that differs between MicroPython and CPython: const, the
# ticks functions and forgetting modules. CPython gets MicroPython's
# semantics, wrap-around included (cribcore.ticks, which CircuitPython and
# the host use too).
# The type checker sees the board's signatures; the CPython stand-ins differ.
# pyright: reportAssignmentType=false, reportAttributeAccessIssue=false
import sys

from cribcore import const as const  # (the app takes it from here, with the ticks)

try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:
    import time as _time

    from cribcore import TICKS_PERIOD
    from cribcore.ticks import Ticks

    _clock = Ticks(TICKS_PERIOD, lambda: int(_time.monotonic() * 1000))
    ticks_ms = _clock.ticks_ms
    ticks_add = _clock.ticks_add
    ticks_diff = _clock.ticks_diff


# On a board, loaded code lives on the heap (unless frozen into the
# firmware image): a module used for one job is dropped after it.
_BOARD = sys.implementation.name in ("micropython", "circuitpython")


def forget(name):
    """Drop module `name` (loaded for one job: the power-up, a game's end,
    the menu) so the collector can free its code once nothing refers to it.
    Only on a board: CPython keeps its modules (a re-import would make new
    classes)."""
    if not _BOARD or name not in sys.modules:
        return
    del sys.modules[name]
    dot = name.rfind(".")
    if dot > 0:
        parent = sys.modules.get(name[:dot])
        if parent is not None and hasattr(parent, name[dot + 1 :]):
            delattr(parent, name[dot + 1 :])  # a package keeps its loaded submodules as attributes
