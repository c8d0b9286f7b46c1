# The simulated CircuitPython board, run on CPython by `cribboard sim
# --runtime circuitpython`: the CIRCUITPY drive is a folder (what `cribboard
# flash --drive` wrote), boot.py and then code.py run from it as CircuitPython
# runs them, over the stand-in hardware modules beside this file, with the
# real Adafruit neopixel driver from the drive. Its second USB serial port
# (usb_cdc.data, the link) is this process's stdin/stdout, a pseudo-terminal
# the host made; buttons and LED frames go over the local socket, in the
# MicroPython simulated board's protocol (mp/simhw.py).
# Usage: python cpboard.py DRIVE_DIR HW_PORT BOARD_ID_HEX
import importlib.util
import os
import select
import sys
import time
from binascii import unhexlify

HERE = os.path.dirname(os.path.abspath(__file__))
_PERIOD = 1 << 29
_WRITE_WAIT_S = 0.2


def _simhw():
    path = os.path.join(os.path.dirname(HERE), "mp", "simhw.py")
    spec = importlib.util.spec_from_file_location("simhw", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class PtySerial:
    """usb_cdc.Serial on this process's stdin/stdout."""

    def __init__(self):
        self.fd_in, self.fd_out = sys.stdin.fileno(), sys.stdout.fileno()
        self.connected = True
        self.timeout = 0
        self.write_timeout = _WRITE_WAIT_S

    @property
    def in_waiting(self):
        return 1 if select.select([self.fd_in], [], [], 0)[0] else 0

    def readinto(self, buf):
        data = os.read(self.fd_in, len(buf))
        if not data:
            sys.exit(0)  # the host has gone: so does the board
        buf[: len(data)] = data
        return len(data)

    def write(self, data):
        if select.select([], [self.fd_out], [], _WRITE_WAIT_S)[1]:
            return os.write(self.fd_out, data)
        return 0  # nobody reading: dropped, as USB does


def main():
    drive, port, ident = sys.argv[1], int(sys.argv[2]), unhexlify(sys.argv[3])
    hw = _simhw()
    hw.connect(port, ident)
    sys.path[:0] = [HERE]
    # Built into CircuitPython's RP2040 firmware: found before the drive's
    # lib/, so a copy of it there is never used (nor is one needed).
    import adafruit_pixelbuf  # noqa: F401

    sys.path[1:1] = [os.path.join(drive, "lib"), drive]
    import simcp

    start = time.monotonic()
    offset = _PERIOD - 65536  # CircuitPython starts its ticks a minute before they wrap

    def poll(name=None):
        # The host names a pin by GPIO number (a Pico's "GP5" is 5) or by name ("D5").
        hw.poll(int(name[2:]) if name and name.startswith("GP") and name[2:].isdigit() else name)
        for pin, level in hw.levels.items():
            simcp.levels["GP%d" % pin if isinstance(pin, int) else pin] = bool(level)

    simcp.poll = poll
    simcp.sent = hw.frame
    simcp.stalls = hw.stalls  # the process's stalls, as the MicroPython board's timers skip them
    simcp.ms = lambda: offset + int((time.monotonic() - start) * 1000)
    simcp.data_port = PtySerial
    simcp.uid[:] = ident[:8].ljust(8, b"\0")
    os.chdir(drive)
    import supervisor

    try:
        boot = True
        while True:
            try:
                if boot:
                    run_file(drive, "boot.py", "__boot__")
                run_file(drive, "code.py", "__main__")
                return
            except supervisor.Reload:  # supervisor.reload(): code.py again, boot.py not
                boot = False
                simcp.chip["run_reason"] = "SUPERVISOR_RELOAD"
            except simcp.ChipReset as e:  # the chip reset (its watchdog): boot.py, then code.py
                boot = True
                simcp.chip.update(reset_reason=e.reason, run_reason="STARTUP")
            for name in [n for n in sys.modules if n.split(".")[0] in ("cribapp", "cribcore", "cribcp")]:
                del sys.modules[name]
    except hw.HostGone:
        return  # the simulator has gone: no orphan board


def run_file(drive, name, as_name):
    with open(name) as f:
        exec(compile(f.read(), os.path.join(drive, name), "exec"), {"__name__": as_name})


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
