# The signature of a club request and of its acknowledgement: HMAC-SHA256
# (RFC 2104) over one canonical text, the same code on the board and the
# host (MicroPython has hashlib.sha256 but no hmac). A board loads this only
# when it has a club to report to.
from binascii import hexlify
from hashlib import sha256

from cribcore import const

_BLOCK = const(64)  # SHA-256's block, in bytes


def hmac_sha256(key, msg):
    """HMAC-SHA256 of msg (bytes) under key (bytes)."""
    if len(key) > _BLOCK:
        key = sha256(key).digest()
    key = key + bytes(_BLOCK - len(key))
    inner = sha256(bytes([b ^ 0x36 for b in key]) + msg).digest()
    return sha256(bytes([b ^ 0x5C for b in key]) + inner).digest()


def canonical(method, path, board, counter, body):
    """What is signed: the method, the path, the board's id and the
    request's counter ("BOOT.N", never used twice), one a line, then the
    body as sent. An acknowledgement signs "ACK" and the same path, board
    and counter over its own body, so it answers that request only."""
    return ("%s\n%s\n%s\n%s\n" % (method, path, board, counter)).encode() + body


def signature(key, method, path, board, counter, body):
    """The signature's hex digits (64)."""
    return hexlify(hmac_sha256(key, canonical(method, path, board, counter, body))).decode()
