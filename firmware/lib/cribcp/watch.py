# The loop's watchdog on CircuitPython: microcontroller.watchdog in RAISE
# mode, fed once a loop pass. CircuitPython has no timer callbacks to feed
# it from (MicroPython's way, cribapp.watchdog), so a stuck loop raises
# WatchDogTimeout in the loop instead of resetting the chip: the crash
# handler logs it and reloads. Ctrl-C stops the watchdog, so the REPL and a
# `cribboard flash --drive` are never cut short.
import microcontroller
from watchdog import WatchDogMode

TIMEOUT_S = 8


class CpWatch:
    def __init__(self, timer):
        self.timer = timer

    @staticmethod
    def start():
        """The running watch, or None on a chip without a watchdog."""
        timer = microcontroller.watchdog
        if timer is None:
            return None
        timer.timeout = TIMEOUT_S
        timer.mode = WatchDogMode.RAISE
        timer.feed()
        return CpWatch(timer)

    def alive(self):
        self.timer.feed()

    def rest(self):
        self.timer.deinit()
