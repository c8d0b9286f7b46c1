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
HOLD_MS = 30  # each level a button is given is held this long on the board's clock

levels = {}  # pin -> level; an unset pin reads high (pulled up, not pressed)
board_id = b"\x00" * 8
_sock = None
_writable = None
_buf = b""
# Changes wait their turn: a press and its release that arrive together
# (the host was quick, or this process was slow to run) must still be seen
# by the debouncer as a press.
_queue = []
_changed_at = 0


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
    """Take in the button changes the host has sent, one at a time."""
    global _buf, _changed_at
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
            if len(parts) == 2 and parts[0] in (b"D", b"U"):
                # A GPIO number, or a CircuitPython pin name ("D5").
                pin = int(parts[1]) if parts[1].isdigit() else parts[1].decode()
                _queue.append((pin, 0 if parts[0] == b"D" else 1))
    now = ticks_ms()
    if _queue and ticks_diff(now, _changed_at) >= HOLD_MS:
        pin, level = _queue.pop(0)
        levels[pin] = level
        _changed_at = now


def frame(buf):
    """Send the strip's bytes (GRB, as the driver holds them) to the host."""
    if _sock is None:
        return
    data = b"F " + hexlify(buf) + b"\n"
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
