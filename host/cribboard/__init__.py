# Cribboard host tool: the `cribboard` command for a computer beside the board.

from cribcore import __version__

__all__ = ["__version__"]
