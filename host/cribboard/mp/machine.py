# The simulated board's `machine`: pins read the levels the host sends; the
# watchdog, the soft timers and the reset cause behave as MicroPython
# v1.28.0's rp2 port has them (ports/rp2/machine_wdt.c, machine_timer.c,
# modmachine.c), run by simhw.
import simhw

# rp2 has these two only: WDT_RESET after any reset through the watchdog,
# its timeout or machine.reset() (watchdog_reboot()) alike; PWRON_RESET else.
PWRON_RESET = 1
WDT_RESET = 3


class Pin:
    IN, OUT, PULL_UP, PULL_DOWN = 0, 1, 1, 2

    def __init__(self, pin_id, mode=-1, pull=-1):
        self.pin_id = pin_id

    def value(self, v=None):
        if v is None:
            simhw.poll(self.pin_id)
            return simhw.levels.get(self.pin_id, 1)
        simhw.levels[self.pin_id] = v


class WDT:
    """rp2: WDT 0 only; the timeout in ms, at most 8,388 (the 24-bit counter
    at 2 ticks a microsecond). Once started it cannot be stopped (no deinit)
    or slowed; a soft reset leaves it running; only a reset clears it."""

    TIMEOUT_MAX = 8388

    def __init__(self, id=0, timeout=5000):
        if id != 0:
            raise ValueError("WDT(%d) doesn't exist" % id)
        if timeout > self.TIMEOUT_MAX:
            raise ValueError("timeout exceeds %d" % self.TIMEOUT_MAX)
        simhw.watchdog_start(timeout)

    def feed(self):
        simhw.watchdog_feed()


class Timer:
    """rp2: virtual (soft) timers only, id -1; ended by a soft reset. The
    callback runs when the timer is due (here: at the board's next pin read
    or serial wait, at the moment it was due)."""

    ONE_SHOT, PERIODIC = 0, 1

    def __init__(self, id=-1, **kwargs):
        if id != -1:
            raise ValueError("Timer doesn't exist")
        self.period = 0
        self.due = 0
        self._callback = None
        if kwargs:
            self.init(**kwargs)

    def init(self, *, mode=PERIODIC, period=-1, freq=-1, tick_hz=1000, callback=None):
        if freq > 0:
            period_ms = 1000 // freq
        else:
            period_ms = period * 1000 // tick_hz
        self.deinit()
        self.period = period_ms if mode == Timer.PERIODIC else 0
        self._callback = callback
        self.due = simhw.ticks_add(simhw.ticks_ms(), max(period_ms, 1))
        simhw.timers.append(self)

    def deinit(self):
        if self in simhw.timers:
            simhw.timers.remove(self)

    def fire(self):
        if self.period:
            self.due = simhw.ticks_add(self.due, self.period)
        else:
            self.deinit()
        if self._callback is not None:
            self._callback(self)


def unique_id():
    return simhw.board_id


def reset():
    raise simhw.Reset()


def reset_cause():
    """Kept by a soft reset: the hardware's last reset."""
    return simhw.reset_cause


def soft_reset():
    raise simhw.Reset()
