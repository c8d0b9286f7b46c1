# The loop's watchdog on CircuitPython: microcontroller.watchdog, fed once a
# loop pass (CircuitPython has no timer callbacks to feed it from, which is
# MicroPython's way, cribmp.watchdog). Its ports differ (CircuitPython 10):
# where the port has RAISE, a stuck loop raises WatchDogTimeout in the loop,
# which the crash handler logs before it reloads; where it has not
# (raspberrypi, atmel-samd and silabs raise NotImplementedError), RESET: the
# chip restarts. Which one is asked of the port, not read off a board name.
# Ctrl-C stops it (mode = None: CircuitPython 10 has no deinit()), so the
# REPL and `cribboard flash --drive` are never cut short.
import microcontroller
from watchdog import WatchDogMode

TIMEOUT_S = 8  # the RP2040's most is 8.388 s


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
        try:
            timer.mode = WatchDogMode.RAISE
        except NotImplementedError:  # this port only resets
            timer.mode = WatchDogMode.RESET
        timer.feed()
        return CpWatch(timer)

    def alive(self):
        self.timer.feed()

    def rest(self):
        """Stop the watchdog: the loop was left on purpose (Ctrl-C). Never
        raises: what follows (the last entry committed) must run. A port
        that cannot stop its watchdog will restart the board at the REPL."""
        try:
            self.timer.mode = None
        except Exception:  # a port that refuses: nothing more to do
            pass
