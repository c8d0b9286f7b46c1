# Stand-ins for CircuitPython's hardware modules (board, digitalio,
# microcontroller, neopixel_write, storage, supervisor, usb_cdc, watchdog), first on
# sys.path when the CircuitPython edge runs on CPython, with the real
# Adafruit neopixel and adafruit_pixelbuf on top. Same names and signatures
# as circuitpython-stubs. This module is what they share with whoever
# drives them: pin levels, the frames sent, the chip's id, the clock.
levels = {}  # pin name -> level; an unset input reads high (pulled up, not pressed)
frames = []  # every buffer neopixel_write sent, as bytes
wire = [None]  # the pin the last frame went out on, by name
uid = bytearray(b"\xe6\x61\x41\x04\x03\x2b\x2c\x29")
now_ms = [0]  # supervisor.ticks_ms() is now_ms[0] wrapped at 2**29
remounts = []  # (path, readonly) of every storage.remount()
# The port the board runs (CircuitPython 10.2.1): what its watchdog has.
PICO = {"watchdog_modes": ("reset",), "watchdog_max_s": 8.388}  # raspberrypi: RESET only
port = dict(PICO)
watchdogs = []  # the watchdog while it runs (watchdog.WatchDogTimer)
RESET_REASONS = (
    "POWER_ON",
    "BROWNOUT",
    "SOFTWARE",
    "DEEP_SLEEP_ALARM",
    "RESET_PIN",
    "WATCHDOG",
    "UNKNOWN",
    "RESCUE_DEBUG",
)
# Why the chip last reset (microcontroller.cpu.reset_reason) and why code.py
# runs (supervisor.runtime.run_reason), by name.
chip = {"reset_reason": "POWER_ON", "run_reason": "STARTUP"}


class ChipReset(BaseException):
    """The chip resets (its watchdog in RESET mode: "WATCHDOG"; or
    microcontroller.reset(): "SOFTWARE"): nothing after it runs, no `except
    Exception` catches it; the board starts again from boot.py, and the chip
    reports the reason (reset(reason) where the board starts again)."""

    def __init__(self, reason="WATCHDOG"):
        super().__init__(reason)
        self.reason = reason


def check_watchdog():
    """The running watchdog, if its time is up: RAISE raises WatchDogTimeout
    where the board's code is; RESET resets the chip (and stops it)."""
    if watchdogs and watchdogs[0].expired(ms()):
        timer = watchdogs[0]
        if timer.mode == "raise":
            import watchdog

            timer._fed()  # raised once a timeout
            raise watchdog.WatchDogTimeout()
        timer.mode = None
        raise ChipReset()


# Hooks the simulated board (cpboard.py) replaces to reach the host: button
# changes taken in as a pin (by name) is read, frames sent out, a real clock, the
# data port on its pseudo-terminal.
def poll(pin=None):
    pass


def sent(buf):
    frames.append(bytes(buf))


def ms():
    return now_ms[0]


def poll_watchdog(timer):
    """Called on every feed; a test replaces it to see the feeds."""


def stalls():
    """Milliseconds, all told, for which the board's process was stopped (a busy machine: no CPU, a
    disk) in a way its chip would not have been: its watchdog does not count them. None here; the
    simulated board's are simhw's (cpboard.py), as the MicroPython board's timers and watchdog skip them."""
    return 0


def data_port():
    import usb_cdc

    return usb_cdc.Serial()


def reset(reason="POWER_ON"):
    """The chip starts: from power (the default) or after a ChipReset's reason."""
    chip["reset_reason"] = reason
    chip["run_reason"] = "STARTUP"
    levels.clear()
    del frames[:]
    wire[0] = None
    del remounts[:]
    now_ms[0] = 0
    port.clear()
    port.update(PICO)
    import microcontroller

    microcontroller.watchdog.mode = None  # a power-up: no watchdog runs
