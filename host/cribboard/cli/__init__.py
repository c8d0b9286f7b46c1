# The `cribboard` command, by command group. Importing the modules adds their
# commands to the group (cli.base); main() is the entry point.
from cribboard.cli import backups, barbu, board, calc, club, hardware, night, piquet, players, results, tournament  # noqa: F401  (they add their commands)
from cribboard.cli.base import cli, main

__all__ = ["cli", "main"]
