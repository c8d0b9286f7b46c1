# Sealed lines: text followed by " ~" and its CRC-32 in hex, so a torn or
# garbled line is always caught. The serial link's lines both ways and the
# lines of the board's files (its state, its log, its crash log) are sealed.
from binascii import crc32

from cribcore import const

_MARK = const(" ~")
_CRC_LEN = const(8)


def crc_hex(text: str) -> str:
    return "%08x" % (crc32(text.encode()) & 0xFFFFFFFF)


def seal(text: str) -> bytes:
    """The line for text, newline included, as bytes."""
    return ("%s%s%s\n" % (text, _MARK, crc_hex(text))).encode()


def unseal(line: bytes | bytearray | str) -> str | None:
    """The text of a sealed line (bytes or str, newline optional), or None if
    the line is torn, garbled or not sealed at all."""
    if isinstance(line, (bytes, bytearray)):
        try:
            line = bytes(line).decode()
        except UnicodeError:
            return None
    line = line.rstrip("\r\n")
    cut = len(line) - _CRC_LEN - len(_MARK)
    if cut < 0 or line[cut : cut + len(_MARK)] != _MARK:
        return None
    text = line[:cut]
    if crc_hex(text) != line[cut + len(_MARK) :]:
        return None
    return text
