# The simulated board's hardware link (runs under MicroPython): button levels
# come in from the host over a local socket, LED frames go out on it.
import socket
from binascii import hexlify

levels = {}  # pin -> level; an unset pin reads high (pulled up, not pressed)
board_id = b"\x00" * 8
_sock = None
_buf = b""


class Reset(Exception):
    """machine.reset(): the board starts again."""


def connect(port, ident):
    global _sock, board_id
    board_id = ident
    s = socket.socket()
    s.connect(socket.getaddrinfo("127.0.0.1", port)[0][-1])
    s.setblocking(False)
    _sock = s


def poll():
    """Take in every button change the host has sent."""
    global _buf
    if _sock is None:
        return
    while True:
        try:
            data = _sock.recv(256)
        except OSError:
            return
        if not data:
            return
        _buf += data
        while b"\n" in _buf:
            line, _buf = _buf.split(b"\n", 1)
            parts = line.split()
            if len(parts) == 2 and parts[0] in (b"D", b"U"):
                levels[int(parts[1])] = 0 if parts[0] == b"D" else 1


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
        except OSError:
            continue  # the host is busy reading: try again
        sent += n or 0
