# Entry point on a CircuitPython board: the same app as main.py runs on
# MicroPython, through CircuitPython's edge (lib/cribcp): pins by name,
# Adafruit's NeoPixel driver, the link on the second USB serial port that
# boot.py enables, and supervisor.ticks_ms(), which wraps at 2**29.
import time

import supervisor
import usb_cdc
from cribcp.datastream import DataStream
from cribcp.hardware import Hardware

from cribapp import assemble
from cribapp.compat import Ticks

LOOP_S = 0.002
TICKS_PERIOD = 1 << 29  # where supervisor.ticks_ms() wraps (HELLO tells the host)


def build(root="", stream=None, clock=None):
    """The app (or the self-test, if OK is held) from the files under root.
    Tests pass their own stream and clock."""
    if stream is None:
        stream = DataStream(usb_cdc.data)
    if clock is None:
        clock = Ticks(TICKS_PERIOD, supervisor.ticks_ms)
    return assemble.build(root, Hardware(), stream, clock)


def _pause():
    time.sleep(LOOP_S)


if __name__ == "__main__":
    assemble.run(build, _pause)
