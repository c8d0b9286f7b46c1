# What a score sheet tells the table after a line: most of it is routine
# (the deal, the totals, the check that passed), which a typing table reads
# and a file or pipe does not need on stderr; the rest (corrections,
# warnings, marks, failed checks) always needs a look. The mark is the
# line's type, not its words, so it holds in every language.


class Routine(str):
    """A line only the typing table needs."""
