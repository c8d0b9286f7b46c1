# The signature of a club request and of its acknowledgement: HMAC-SHA256
# (RFC 2104) over one canonical text, the same code on the board and the
# host (MicroPython has hashlib.sha256 but no hmac). A board loads this only
# when it has a club to report to.
from binascii import hexlify
from hashlib import sha256

from cribcore import const

_BLOCK = const(64)  # SHA-256's block, in bytes


def pads(key: bytes) -> tuple[bytes, bytes]:
    """The key's two padded blocks (inner, outer), made once: a board signs
    and checks with them without XOR-ing 64 bytes in Python each time (a
    few ms on a Pico)."""
    if len(key) > _BLOCK:
        key = sha256(key).digest()
    key = key + bytes(_BLOCK - len(key))
    return bytes([b ^ 0x36 for b in key]), bytes([b ^ 0x5C for b in key])


def hmac_sha256(key: bytes | tuple[bytes, bytes], *parts: bytes) -> bytes:
    """HMAC-SHA256 under key (bytes, or its pads()) of the parts (bytes) one after the other, hashed as
    they are, without joining them (a request's body is kilobytes on a board's heap)."""
    inner_pad, outer_pad = key if isinstance(key, tuple) else pads(key)
    inner = sha256(inner_pad)
    for part in parts:
        inner.update(part)
    outer = sha256(outer_pad)
    outer.update(inner.digest())
    return outer.digest()


def canonical(method: str, path: str, board: str, counter: str) -> bytes:
    """What is signed, before the body: the method, the path, the board's
    id and the request's counter ("BOOT.N", never used twice), one a line;
    then the body as sent. An acknowledgement signs "ACK" and the same path,
    board and counter over its own body, so it answers that request only."""
    return ("%s\n%s\n%s\n%s\n" % (method, path, board, counter)).encode()


def signature(key: bytes | tuple[bytes, bytes], method: str, path: str, board: str, counter: str, body: bytes) -> str:
    """The signature's hex digits (64), under key (bytes, or its pads())."""
    return hexlify(hmac_sha256(key, canonical(method, path, board, counter), body)).decode()
