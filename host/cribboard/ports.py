# Finding the board's serial port.
import os

from serial.tools import list_ports

# USB vendor ids of the boards we support: Raspberry Pi (RP2040) and Espressif.
BOARD_VIDS = (0x2E8A, 0x303A)


class NoBoard(Exception):
    pass


def find(port=None):
    """The port to use: the one given, $CRIBBOARD_PORT, or the one board plugged in."""
    if port:
        return port
    if os.environ.get("CRIBBOARD_PORT"):
        return os.environ["CRIBBOARD_PORT"]
    ports = list(list_ports.comports())
    boards = [p.device for p in ports if p.vid in BOARD_VIDS]
    if len(boards) == 1:
        return boards[0]
    tried = ", ".join(p.device for p in ports) or "none found"
    if not boards:
        raise NoBoard("no board found (ports tried: %s); plug one in, or give --port "
                      "(the simulated board prints its port)" % tried)
    raise NoBoard("more than one board (%s): say which with --port" % ", ".join(boards))
