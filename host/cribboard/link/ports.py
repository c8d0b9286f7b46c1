# Finding the board's serial port among those pyserial lists: the USB vendor
# ids of the boards makers use (an RP2040 or an ESP32 with native USB) and of
# the USB-serial bridges on most ESP32 development boards.
import os
import stat
import sys
from collections.abc import Callable
from typing import Any

from serial.tools import list_ports

from cribboard.errors import CribboardError, UsageError
from cribboard.text.i18n import _

CIRCUITPYTHON_VID = 0x239A  # Adafruit's: CircuitPython boards use it, a Pico running CircuitPython too
BOARD_VIDS = {
    0x2E8A: "Raspberry Pi (RP2040)",
    0x303A: "Espressif native USB",
    CIRCUITPYTHON_VID: "CircuitPython",
    0x10C4: "Silicon Labs CP210x",
    0x1A86: "WCH CH34x",
    0x0403: "FTDI",
}


_LINUX_MEMORY_DEVICES = 1  # the major number of /dev/null, /dev/zero, /dev/full, /dev/random...


class NoBoard(CribboardError):
    pass


class SeveralBoards(UsageError):
    pass


def describe(p: Any) -> str:
    what = BOARD_VIDS.get(p.vid, "USB %04x:%04x" % (p.vid, p.pid or 0))
    extra = p.product or p.description
    serial = _(", serial %s") % p.serial_number if p.serial_number else ""
    return "%s (%s%s%s)" % (p.device, what, ", " + extra if extra and extra != "n/a" else "", serial)


def _circuitpython_console(p: Any, listed: list[Any]) -> bool:
    """A CircuitPython board shows two serial ports: the REPL (console) and,
    once boot.py enables it, the data port the link runs on. The data port's
    interface is named "CircuitPython CDC2 ..."; without names, it is the one
    on the higher USB interface number."""
    if p.vid != CIRCUITPYTHON_VID:
        return False
    twins = [q for q in listed if q.vid == p.vid and q.serial_number == p.serial_number]
    if len(twins) < 2:
        return False  # boot.py has not enabled the data port (yet)
    if any(q.interface and "CDC2" in q.interface for q in twins):
        return not (p.interface and "CDC2" in p.interface)
    return p is not max(twins, key=lambda q: q.location or "")


def candidates(ports: list[Any] | None = None) -> list[Any]:
    """The ports that look like a board, Raspberry Pi and Espressif first;
    of a CircuitPython board, only its data port."""
    listed = list(list_ports.comports()) if ports is None else list(ports)
    found = [p for p in listed if p.vid in BOARD_VIDS and not _circuitpython_console(p, listed)]
    order = list(BOARD_VIDS)
    return sorted(found, key=lambda p: (order.index(p.vid), p.device))


def not_a_serial_port(port: str) -> bool:
    """Whether port names something that exists and is no serial line: a file, a folder, or one of Linux's
    memory devices (/dev/null, /dev/zero, /dev/full), which pyserial would refuse only with "Inappropriate
    ioctl for device". Judged without opening it: opening an ESP32 board's port resets it. A pyserial URL
    (socket://, rfc2217://), a name that does not exist (the board unplugged) and a COM port are not."""
    if "://" in port or os.name != "posix":
        return False
    try:
        mode = os.stat(port)
    except OSError:
        return False
    if not stat.S_ISCHR(mode.st_mode):
        return True
    return sys.platform.startswith("linux") and os.major(mode.st_rdev) == _LINUX_MEMORY_DEVICES


def find(port: str | None = None, ports: list[Any] | None = None, tell: Callable[[str], None] | None = None) -> str:
    """The port to use: the one given (UsageError if it is a file or device that is no serial port), or the
    one board there is: plugged in, or a simulated board running for this user (tell(text) says which,
    as a board found that way may not be the one meant). ports: the listing to use instead of the
    machine's (and then no simulated board)."""
    if port:
        if not_a_serial_port(port):
            raise UsageError(
                _("%s is not a serial port (a board's port is a device such as /dev/ttyACM0 or COM3)") % port
            )
        return port
    listed = list(list_ports.comports()) if ports is None else list(ports)
    boards = [(p.device, describe(p)) for p in candidates(listed)]
    if ports is None:
        from cribboard.sim import registry as simboards

        boards += [(s["port"], _("%(port)s: the simulated board of %(flash)s") % s) for s in simboards.running()]
    if len(boards) == 1:
        if tell is not None:
            tell(_("the board on %s") % boards[0][1])
        return boards[0][0]
    if not boards:
        tried = ", ".join(p.device for p in listed) or _("none found")
        raise NoBoard(
            _("no board found (ports tried: %s); plug one in, or give --port (the simulated board prints its port)")
            % tried
        )
    raise SeveralBoards(_("more than one board: %s; say which with --port") % "; ".join(d for _p, d in boards))
