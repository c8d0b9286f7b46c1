# Stand-in for CircuitPython's watchdog module (names from circuitpython-stubs).
# Its timer expires only when a test says so (simcp.watchdog_expire()).
import simcp


class WatchDogTimeout(Exception):
    pass


class WatchDogMode:
    RAISE = "raise"
    RESET = "reset"


class WatchDogTimer:
    def __init__(self):
        self.timeout = 0.0
        self.mode = None
        self.feeds = 0

    def feed(self):
        if self.mode is None:
            raise ValueError("WatchDogTimer is not initialized")
        self.feeds += 1
        simcp.poll_watchdog(self)

    def deinit(self):
        self.mode = None
