# The bytes of a board's request to its club's server and of the answer
# (HTTP/1.0, one request a connection: docs/protocol.md). Pure: the sender
# moves the bytes, this only makes and reads them. Its names (the paths,
# the headers, how long a board waits) are the club's server's too: the
# host imports them from here, so the two sides cannot drift.
from cribcore import const

GAMES = "/board/v1/games"
LIVE = "/board/v1/live"
BOARD = "X-Cribboard-Board"
COUNTER = "X-Cribboard-Counter"  # its value: COUNTER_OF
COUNTER_OF = "%d.%d"  # "BOOT.N": the power-up's number, then the request's in it
COUNT_MAX = const(0x3FFFFFFF)  # BOOT and N each at most this (a board's small int): the server takes no more
SIGNATURE = "X-Cribboard-Signature"
REQUEST_MS = const(10000)  # a request not answered by then is given up (and the server need not answer it)
_HEAD = (
    "POST %s HTTP/1.0\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
    + BOARD
    + ": %s\r\n"
    + COUNTER
    + ": %s\r\n"
    + SIGNATURE
    + ": %s\r\n\r\n"
)


def address(server: str) -> tuple[str, int, str]:
    """("A.B.C.D", port, "A.B.C.D:port") of a club server's URL, http://A.B.C.D:PORT/
    (cribapp.hostapi checked it when it was kept)."""
    hostport = server[7:-1]
    host, _colon, port = hostport.partition(":")
    return host, int(port), hostport


def request(hostport: str, path: str, board: str, counter: str, sig: str, body: bytes) -> bytes:
    """A signed POST of body (bytes), whole."""
    return (_HEAD % (path, hostport, len(body), board, counter, sig)).encode() + body


def _head(data: bytes) -> tuple[int, int, bytes] | None:
    """(where the body starts, its Content-Length or -1, the signature header) of an answer (bytes),
    or None before its head is all in. One pass over the head's lines (a Pico's few ms count)."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return None
    length = -1
    sig = b""
    for line in data[:end].split(b"\r\n"):
        low = line[:22].lower()
        if low.startswith(b"content-length:"):
            try:
                length = int(line[15:].strip())
            except ValueError:
                pass
        elif low == b"x-cribboard-signature:":  # SIGNATURE, lower-cased (bytes: no per-answer .lower())
            sig = line[22:].strip()
    return end + 4, length, sig


def whole(data: bytes | bytearray) -> bool:
    """Whether an answer's head and all the body its Content-Length says have come (else: read on to
    the end of the connection)."""
    head = _head(bytes(data))
    return head is not None and 0 <= head[1] <= len(data) - head[0]


def answer(data: bytes | bytearray) -> tuple[int, str, bytes] | None:
    """(status, signature, body) of a whole answer; None if it is not an HTTP answer."""
    data = bytes(data)
    head = _head(data)
    if head is None or data[:5] != b"HTTP/":
        return None
    start, length, sig = head
    try:
        status = int(data[9:12])
    except ValueError:
        return None
    body = data[start : start + length] if length >= 0 else data[start:]
    try:
        return status, sig.decode(), body
    except UnicodeError:
        return None
