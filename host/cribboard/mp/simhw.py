# The simulated board's hardware link (runs under MicroPython): button levels
# come in from the host over a local socket, LED frames go out on it.
import select
import socket
from binascii import hexlify

try:
    from time import ticks_diff, ticks_ms
except ImportError:  # the CPython stand-in board (cpython_board.py)
    import time

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

_EAGAIN = 11  # errno: a non-blocking socket has nothing for us yet
_STUCK_MS = 5000
HOLD_MS = 30  # a level is held this long on the board's clock unless the host says otherwise

levels = {}  # pin -> level; an unset pin reads high (pulled up, not pressed)
board_id = b"\x00" * 8
_sock = None
_writable = None
_buf = b""
# Changes wait their turn: a press and its release that arrive together
# (the host was quick, or this process was slow to run) must still be seen
# by the debouncer as a press.
_queue = []  # (pin, level, ms to hold it, id to acknowledge)
_changed_at = 0
_hold = 0  # how long the last change holds before the next may come
_unacked = b""  # the id of the last change, whose "A" is still to be sent


class Reset(Exception):
    """machine.reset(): the board starts again."""


class HostGone(BaseException):
    """The simulator that runs this board has gone (stopped, or killed with
    SIGKILL): so does the board, rather than run on as an orphan. Not an
    Exception, so the firmware's crash handler lets it through."""


def connect(port, ident):
    global _sock, board_id, _writable
    board_id = ident
    s = socket.socket()
    s.connect(socket.getaddrinfo("127.0.0.1", port)[0][-1])
    s.setblocking(False)
    _sock = s
    _writable = select.poll()
    _writable.register(s, select.POLLOUT)


def poll():
    """Take in the button changes the host has sent, one at a time, each held
    for its time on the board's clock; say "A" to the host once a change's
    time is up (by then the firmware has seen it and sent the frame it drew:
    HOLD_MS is longer than the firmware's debounce)."""
    global _buf, _changed_at, _hold, _unacked
    if _sock is None:
        return
    while True:
        try:
            data = _sock.recv(256)
        except OSError as e:
            if e.args and e.args[0] == _EAGAIN:
                break  # nothing new
            raise HostGone() from None
        if not data:
            raise HostGone()  # the simulator closed its end
        _buf += data
        while b"\n" in _buf:
            line, _buf = _buf.split(b"\n", 1)
            parts = line.split()
            if 2 <= len(parts) <= 4 and parts[0] in (b"D", b"U"):
                # "D|U PIN [HOLD_MS [ID]]": a GPIO number or a CircuitPython
                # pin name ("D5"), how long to hold the level, and the id the
                # host wants back in "A ID" once the change has been seen.
                pin = int(parts[1]) if parts[1].isdigit() else parts[1].decode()
                hold = int(parts[2]) if len(parts) >= 3 and parts[2].isdigit() else HOLD_MS
                ident = parts[3] if len(parts) == 4 else b""
                _queue.append((pin, 0 if parts[0] == b"D" else 1, hold, ident))
    now = ticks_ms()
    if ticks_diff(now, _changed_at) < _hold:
        return
    if _unacked:
        _send(b"A " + _unacked + b"\n")
        _unacked = b""
    if _queue:
        pin, level, _hold, _unacked = _queue.pop(0)
        levels[pin] = level
        _changed_at = now


def drop_presses():
    """A soft reset: button changes sent while the program was not running
    are not pressed later (the host was told the board did not take them)."""
    global _unacked
    del _queue[:]
    _unacked = b""
    levels.clear()  # every button up


def frame(buf):
    """Send the strip's bytes (GRB, as the driver holds them) to the host."""
    if _sock is not None:
        _send(b"F " + hexlify(buf) + b"\n")


def _send(data):
    view = memoryview(data)
    sent = 0
    while sent < len(data):
        try:
            n = _sock.send(view[sent:])
        except OSError as e:
            if not (e.args and e.args[0] == _EAGAIN):
                raise HostGone() from None
            n = 0
        sent += n or 0
        if sent < len(data) and not _writable.poll(_STUCK_MS):
            raise HostGone()  # a host that reads nothing for this long is gone, or hung
