# The bytes of a board's request to its club's server and of the answer
# (HTTP/1.0, one request a connection: docs/protocol.md). Pure: the sender
# moves the bytes, this only makes and reads them.


def address(server):
    """("A.B.C.D", port, "A.B.C.D:port") of a club server's URL, http://A.B.C.D:PORT/
    (cribapp.hostface checked it when it was kept)."""
    hostport = server[7:].split("/")[0]
    host, _colon, port = hostport.partition(":")
    port = int(port) if port else 80
    return host, port, "%s:%d" % (host, port)


def request(hostport, path, board, counter, sig, body):
    """A signed POST of body (bytes), whole."""
    head = ("POST %s HTTP/1.0\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
            "X-Cribboard-Board: %s\r\nX-Cribboard-Counter: %s\r\nX-Cribboard-Signature: %s\r\n\r\n"
            % (path, hostport, len(body), board, counter, sig))
    return head.encode() + body


def _end(data):
    """Where the answer's body starts and how long it is, or (-1, 0) before its head is in."""
    data = bytes(data)
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return -1, 0
    length = -1
    for line in data[:end].split(b"\r\n")[1:]:
        name, _colon, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                pass
    return end + 4, length


def whole(data):
    """Whether an answer's head and all the body its Content-Length says have come (else: read on to
    the end of the connection)."""
    start, length = _end(data)
    return start >= 0 and 0 <= length <= len(data) - start


def answer(data):
    """(status, signature, body) of a whole answer; None if it is not an HTTP answer."""
    data = bytes(data)
    start, length = _end(data)
    if start < 0 or data[:5] != b"HTTP/":
        return None
    lines = data[:start - 4].split(b"\r\n")
    try:
        status = int(lines[0].split()[1])
    except (IndexError, ValueError):
        return None
    sig = ""
    for line in lines[1:]:
        name, _colon, value = line.partition(b":")
        if name.strip().lower() == b"x-cribboard-signature":
            sig = value.strip().decode()
    body = data[start:start + length] if length >= 0 else data[start:]
    return status, sig, body
