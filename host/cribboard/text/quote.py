# What a message may quote of what it was given: never all of a 10 MB line
# or a 10 KB name. One rule for every error and status line.
LIMIT = 80  # characters of a quoted value
LINE = 400  # characters of a whole message line
INPUT_LINE = 2000  # characters of a line of input (a hand, a deal): a longer one is refused unread


def clip(text: str, limit: int = LIMIT) -> str:
    """text, or its start and "…" where it is longer than limit."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def input_line(line: str) -> str:
    """A line of input, if it is not too long to be one; ValueError (said
    before anything parses it) if it is."""
    length = len(line.rstrip("\r\n"))
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
