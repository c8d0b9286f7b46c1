# A hung board restarts; a board at its REPL does not. The hardware
# watchdog (machine.WDT) cannot be stopped once started, yet Ctrl-C must
# leave the board at its REPL for as long as mpremote or `cribboard flash`
# need it. So the watchdog is fed from a timer, and the timer feeds it only
# while the loop is making progress (alive() once a pass), or while it
# rests: left on purpose (rest(): Ctrl-C) or yet to run (boot.py; wake()
# when it does). A loop stuck in Python stops the passes; one stuck in C
# stops the timer too: either way the feeding stops and the watchdog
# restarts the board, whose game was saved as it went.
from cribapp.compat import const

TIMEOUT_MS = const(8000)  # the most rp2's watchdog allows is 8,388 ms
TICK_MS = const(1000)  # how often the timer looks
_WRAP = const(0xFFFF)  # the pass counter wraps: it stays a small int


class LoopWatch:
    def __init__(self, feed):
        self.feed = feed  # the hardware watchdog's feed()
        self.passes = 0
        self._seen = -1
        self.resting = False

    def alive(self):
        """Once a loop pass: cheap, and nothing allocated."""
        self.passes = (self.passes + 1) & _WRAP

    def rest(self):
        """The loop was left on purpose (Ctrl-C), or is yet to run
        (boot.py): keep the board up."""
        self.resting = True

    def wake(self):
        """The loop runs: fed from now on only while it moves."""
        self.resting = False

    def tick(self, timer=None):
        """The timer's callback: feed the watchdog if the loop moved since
        the last look (or rests)."""
        if self.resting or self.passes != self._seen:
            self._seen = self.passes
            self.feed()
