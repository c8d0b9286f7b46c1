# What a message may quote of what it was given: never all of a 10 MB line
# or a 10 KB name. One rule for every error and status line.
from typing import TextIO

LIMIT = 80  # characters of a quoted value
LINE = 400  # characters of a whole message line
INPUT_LINE = 2000  # characters of a line of input (a hand, a deal): a longer one is refused unread


def clip(text: str, limit: int = LIMIT) -> str:
    """text, or its start and "…" where it is longer than limit."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


SCAN_MOST = 1 << 24  # characters of one line read (and dropped) before the input is taken for no lines at all
_PIECE = 1 << 16


class Overlong(str):
    """A line longer than INPUT_LINE: its start; its whole length in .length (the rest was read and dropped)."""

    length = 0


class NoLineEnd(Exception):
    """Input with no end of line in SCAN_MOST characters (/dev/zero, a binary file): nothing more is read."""


def read_line(stream: TextIO) -> str:
    """The next line of stream ('' at its end), read in bounded pieces: never more than INPUT_LINE held
    whatever comes; an over-long line as an Overlong (input_line refuses it); NoLineEnd if no line ends."""
    line = stream.readline(INPUT_LINE + 2)
    if len(line.rstrip("\r\n")) <= INPUT_LINE:
        return line
    length, ended = len(line.rstrip("\r\n")), line.endswith("\n")
    while not ended:
        piece = stream.readline(_PIECE)
        if not piece:
            break
        ended = piece.endswith("\n")
        length += len(piece.rstrip("\r\n")) if ended else len(piece)
        if length > SCAN_MOST:
            from cribboard.text.i18n import _

            raise NoLineEnd(
                _("no line ends in the first %d characters: this is not lines of text (nothing more was read)")
                % SCAN_MOST
            )
    out = Overlong(line[:INPUT_LINE])
    out.length = length
    return out


def input_line(line: str) -> str:
    """A line of input, if it is not too long to be one; ValueError (said
    before anything parses it) if it is."""
    length = line.length if isinstance(line, Overlong) else len(line.rstrip("\r\n"))
    if length > INPUT_LINE:
        from cribboard.text.i18n import _

        raise ValueError(
            _("the line is %(length)d characters long; a line is at most %(most)d")
            % {"length": length, "most": INPUT_LINE}
        )
    return line


def quote(value: object, limit: int = LIMIT) -> str:
    """repr(value) for a message, clipped: a bad input is named, not echoed whole."""
    return clip(repr(value), limit)
