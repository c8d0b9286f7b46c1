# Stand-in for CircuitPython's watchdog module, as CircuitPython 10.2.1 has
# it (names from circuitpython-stubs 10.3.1): one WatchDogTimer,
# microcontroller.watchdog, whose modes and longest timeout are the port's
# (simcp.port; a Pico's raspberrypi port unless a test says otherwise):
# - RAISE where the port has it; the raspberrypi, atmel-samd and silabs
#   ports raise NotImplementedError for it and have only RESET;
# - the timeout in seconds, at most the port's most (the RP2040's 8.388 s);
# - mode = None stops it; there is no deinit() (gone in CircuitPython 10);
#   feed() while it is stopped does nothing; setting the timeout feeds it.
# It expires on the board's clock (simcp.ms), looked at whenever the board
# reads a pin or feeds it: RAISE raises WatchDogTimeout there, RESET resets
# the chip (simcp.ChipReset). The time the board's process was stopped, which
# the chip would not have seen (simcp.stalls), does not count.
import simcp


class WatchDogTimeout(Exception):
    pass


class WatchDogMode:
    RAISE = "raise"
    RESET = "reset"


class WatchDogTimer:
    def __init__(self):
        self._timeout = 0.0
        self._mode = None
        self.feeds = 0
        self.fed_at = 0
        self._stalls_at = 0  # simcp.stalls() when fed

    @property
    def timeout(self):
        return self._timeout

    @timeout.setter
    def timeout(self, seconds):
        if not 0 < seconds <= simcp.port["watchdog_max_s"]:
            raise ValueError("timeout must be 0-%s" % simcp.port["watchdog_max_s"])
        self._timeout = float(seconds)
        self._fed()  # setting the timeout feeds it too

    @property
    def mode(self):
        return self._mode

    @mode.setter
    def mode(self, mode):
        if mode is not None and mode not in simcp.port["watchdog_modes"]:
            raise NotImplementedError()
        self._mode = mode
        self._fed()
        simcp.watchdogs[:] = [self] if mode is not None else []

    def feed(self):
        if self._mode is None:
            return  # silently nothing while it is not running (CircuitPython 10)
        simcp.check_watchdog()
        self.feeds += 1
        self._fed()
        simcp.poll_watchdog(self)

    def _fed(self):
        self.fed_at = simcp.ms()
        self._stalls_at = simcp.stalls()

    def expired(self, now):
        unfed = now - self.fed_at - (simcp.stalls() - self._stalls_at)
        return self._mode is not None and unfed > self._timeout * 1000
