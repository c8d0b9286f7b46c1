# What a score sheet tells the table after a line: most of it is routine
# (the deal, the totals, the check that passed), which a typing table reads
# and a file or pipe does not need on stderr; the rest (corrections,
# warnings, marks, failed checks) always needs a look. The mark is the
# line's type, not its words, so it holds in every language. What a line
# changed is data (Change); the sheets' views make the words.
from typing import Any, NamedTuple


class Routine(str):
    """A line only the typing table needs."""


class Change(NamedTuple):
    """What one line did to a sheet: `what` is "entered", "removed" or
    "fixed", `deal` the deal's index, `was` the sheet before (for undo and
    fix: what the deal read before). The views say it in words."""

    what: str
    deal: int
    was: Any
