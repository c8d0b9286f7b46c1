# The one error base class of the host tool. The command line catches it at
# the edge and prints one line: exit status 1 for a failure at run time (no
# board, a cut-off sync, a database error), 2 for a mistake in what was asked.


class CribboardError(Exception):
    exit_code = 1


class UsageError(CribboardError):
    """Bad arguments or input: a card that does not exist, an ambiguous port."""

    exit_code = 2


class SimError(CribboardError):
    """A simulated board, or a board on a page, cannot do what was asked (a
    press it cannot take, a board that would not start)."""
