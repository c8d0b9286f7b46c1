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


class RunReason:
    """Why code.py runs (CircuitPython 10's supervisor.RunReason)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "supervisor.RunReason.%s" % self.name


for _name in ("STARTUP", "AUTO_RELOAD", "SUPERVISOR_RELOAD", "REPL_RELOAD"):
    setattr(RunReason, _name, RunReason(_name))


class Runtime:
    @property
    def run_reason(self):
        """STARTUP after a reset of the chip; SUPERVISOR_RELOAD after supervisor.reload()."""
        return getattr(RunReason, simcp.chip["run_reason"])


runtime = Runtime()
