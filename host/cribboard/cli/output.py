# What a command prints: data on stdout (a table, or JSON with --json),
# progress and status on stderr, and nothing a board or a database sent
# reaching the terminal raw.
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import click

from cribboard.text.i18n import _

if TYPE_CHECKING:
    from rich.console import Console

    from cribboard.store import Row


def printable(text: object) -> str:
    """Text as a terminal may be given it: control characters (C0, DEL, C1,
    line and paragraph separators...) shown as escapes, never sent raw, since
    much of what is printed came from a board or a database: an escape
    sequence in a name or a record must not retitle or recolour the terminal."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in "\n\t" else ascii(c)[1:-1] for c in text)


def wrapped(text: str) -> str:
    """A note as lines that fit a terminal's 80 columns (words kept whole, a command in it too)."""
    import textwrap

    return "\n".join(textwrap.wrap(text, 79, break_long_words=False, break_on_hyphens=False, subsequent_indent="  "))


def status(text: object) -> None:
    """Progress and status: stderr, so that stdout is only data."""
    click.echo(printable(text), err=True)


def write_out(output: str, text: str) -> None:
    """What a command exports: to stdout ("-"), or to the file named (saying so on stderr)."""
    if output == "-":
        click.echo(text, nl=False)
        return
    from cribboard.reports import outfile

    outfile.write(output, text.encode())
    status(_("wrote %s") % output)


def stderr_console() -> "Console":
    from rich.console import Console

    return Console(stderr=True)


def emit(
    rows: Sequence["Row"], columns: list[str], as_json: bool, shown: Callable[["Row"], "Row"] | None = None
) -> None:
    """A listing: JSON (the rows as they are), or a table of `columns`,
    shown(row) adding what only the table needs."""
    if as_json:
        click.echo(json.dumps(rows, indent=1))
    else:
        print_table([dict(r, **shown(r)) for r in rows] if shown else rows, columns)


def _cell(value: object) -> str:
    """A value as a table shows it: nothing for None, yes or no in the reader's words for a flag (JSON keeps
    true and false), text with no control characters (what a board sent is shown, never obeyed)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return printable(value).replace("\n", " ")


def print_table(rows: Sequence["Row"], columns: list[str]) -> None:
    """The rows as a table. Into a pipe or a file it keeps its full width: nothing is cut or wrapped. On a
    terminal too narrow for it, the columns go in blocks that fit, one under another, each led by the
    first column (the row's id or name; a rank and the name after it), so every header and value stays
    whole."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from cribboard.cli.columns import title

    titles = [title(c) for c in columns]
    cells = [[_cell(r.get(c)) for c in columns] for r in rows]
    console = Console(width=None if sys.stdout.isatty() else 10_000)
    for block in column_blocks(titles, cells, console.width, _lead(columns)):
        table = Table(*[titles[i] for i in block])
        for column in table.columns:
            column.no_wrap = True  # a column too wide for the terminal on its own is folded, never cut
            column.overflow = "fold"
        for row in cells:
            table.add_row(*[Text(row[i]) for i in block])
        console.print(table)


def _lead(columns: list[str]) -> int:
    """The columns that lead each block of a folded table: what tells its rows apart (a rank and the name
    after it; a bracket's round and its match)."""
    return 2 if columns[:1] == ["rank"] or columns[:2] == ["round", "match"] else 1


def column_blocks(titles: list[str], cells: list[list[str]], width: int, lead: int = 1) -> list[list[int]]:
    """The columns (indexes) in blocks whose tables fit width, the first `lead` columns leading each."""
    from rich.cells import cell_len

    # A column takes its widest text, a space each side and a border; the table one border more.
    widths = [max([cell_len(t)] + [cell_len(row[i]) for row in cells]) + 3 for i, t in enumerate(titles)]
    lead = min(lead, len(titles))
    leading = list(range(lead))
    start = 1 + sum(widths[:lead])
    blocks, block, used = [], list(leading), start
    for i in range(lead, len(titles)):
        if used + widths[i] > width and len(block) > lead:
            blocks.append(block)
            block, used = list(leading), start
        block.append(i)
        used += widths[i]
    return blocks + [block]
