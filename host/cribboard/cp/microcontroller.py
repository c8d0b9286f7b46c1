# Stand-in for CircuitPython's microcontroller: Pin objects, cpu.uid,
# cpu.reset_reason, reset() and the watchdog, as CircuitPython 10's
# raspberrypi port has them.
import simcp
from watchdog import WatchDogTimer


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board.%s" % self.name


class ResetReason:
    """Why the chip last reset (shared-bindings/microcontroller/ResetReason.c).
    Each reason is one object, as CircuitPython's enum values are."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "microcontroller.ResetReason.%s" % self.name


for _name in simcp.RESET_REASONS:
    setattr(ResetReason, _name, ResetReason(_name))


class Processor:
    @property
    def uid(self):
        return simcp.uid

    @property
    def reset_reason(self):
        """The chip's, kept by a reload (supervisor.runtime.run_reason says that)."""
        return getattr(ResetReason, simcp.chip["reset_reason"])


def reset():
    """The raspberrypi port reboots through the watchdog's trigger, which its
    reset_reason reads as SOFTWARE (WATCHDOG is its timeout's alone)."""
    watchdog.mode = None  # a reset stops it
    raise simcp.ChipReset("SOFTWARE")


cpu = Processor()
watchdog = WatchDogTimer()
