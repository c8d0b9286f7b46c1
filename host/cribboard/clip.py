# What a message may quote of what it was given: never all of a 10 MB line
# or a 10 KB name. One rule for every error and status line.
LIMIT = 80  # characters of a quoted value
LINE = 400  # characters of a whole message line


def clip(text: str, limit: int = LIMIT) -> str:
    """text, or its start and "…" where it is longer than limit."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def quote(value: object, limit: int = LIMIT) -> str:
    """repr(value) for a message, clipped: a bad input is named, not echoed whole."""
    return clip(repr(value), limit)
