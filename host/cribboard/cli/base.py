# The `cribboard` command's frame: the group, the options and conventions
# every subcommand shares (cli/__init__.py lists the modules that add them,
# by command group). A table of subcommands in the style of mpremote and
# git. Data goes to stdout (--json wherever data is printed), progress and
# status to stderr. Every error is one line on stderr, never a traceback:
# exit status 1 for a failure at run time, 2 for a mistake in what was asked.

import inspect
import json
import os
import sys
import webbrowser
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import platformdirs

from cribboard import __version__, i18n
from cribboard.clip import LINE, clip
from cribboard.errors import CribboardError, UsageError
from cribboard.i18n import _
from cribboard.records import MAX_INT

if TYPE_CHECKING:  # (imported when used: a command loads only what it needs)
    from rich.console import Console

    from cribboard.linkclient import BoardLink
    from cribboard.store import Database, Row

USAGE_ERROR = UsageError.exit_code

ENVIRONMENT = """\b
Environment:
  CRIBBOARD_PORT         the board's serial port (as --port)
  CRIBBOARD_DB           the database (as --db)
  CRIBBOARD_DB_WAIT      seconds to wait for a database another cribboard
                         is writing to (default 30)
  CRIBBOARD_LINK_WAIT    seconds to wait for a board's answer, each of its
                         three tries (default 3)
  CRIBBOARD_HOME         a Cribboard checkout to take the firmware and
                         hardware data from, instead of the installed ones
  CRIBBOARD_SIM_RUNTIME  'cpython' runs the simulated board on CPython
                         even where MicroPython's unix port is installed
  NO_COLOR               plain text, no colours

\b
Exit status: 0 done, 1 failed (no board, a sync cut off, a database
error), 2 bad usage or input."""


def printable(text: object) -> str:
    """Text as a terminal may be given it: control characters (C0, DEL, C1,
    line and paragraph separators...) shown as escapes, never sent raw, since
    much of what is printed came from a board or a database: an escape
    sequence in a name or a record must not retitle or recolour the terminal."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in "\n\t" else ascii(c)[1:-1] for c in text)


def status(text: object) -> None:
    """Progress and status: stderr, so that stdout is only data."""
    click.echo(printable(text), err=True)


def stderr_console() -> "Console":
    from rich.console import Console

    return Console(stderr=True)


@contextmanager
def _translated(command: Any) -> Iterator[None]:  # a click.Command (the mixin below is one)
    """The command's help, and its options', in the current language while
    click formats them (they are written in English, and the language is
    known only once the command line is read)."""
    saved: list[tuple[Any, str, Any]] = [
        (command, "help", command.help),
        (command, "short_help", command.short_help),
        (command, "epilog", command.epilog),
    ]
    for param in command.params:
        saved.append((param, "help", getattr(param, "help", None)))
        saved.append((param, "show_default", getattr(param, "show_default", None)))
    try:
        for obj, name, value in saved:
            if isinstance(value, str) and value:
                # Click keeps a docstring as written and cleans it when it shows it; the catalogue has it clean.
                setattr(obj, name, _(inspect.cleandoc(value).split("\f")[0].rstrip() if obj is command else value))
        yield
    finally:
        for obj, name, value in saved:
            if hasattr(obj, name):
                setattr(obj, name, value)


class _TranslatedHelp:
    """Click's help screens, in the current language."""

    def get_help(self, ctx: click.Context) -> str:
        with _translated(self):
            return super().get_help(ctx)  # type: ignore[misc]

    def get_short_help_str(self, limit: int = 45) -> str:
        with _translated(self):
            return super().get_short_help_str(limit)  # type: ignore[misc]

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:  # click makes it once, in the language of that moment
            option.help = _("Show this message and exit.")
        return option


class TranslatedCommand(_TranslatedHelp, click.Command):
    pass


class TranslatedGroup(_TranslatedHelp, click.Group):
    command_class = TranslatedCommand
    group_class = type  # subgroups are TranslatedGroups too


def _set_language(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        i18n.use(value)


@click.group(cls=TranslatedGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=ENVIRONMENT)
@click.version_option(__version__, prog_name="cribboard")
@click.option(
    "--lang",
    type=click.Choice(i18n.LANGUAGES),
    is_eager=True,
    expose_value=False,
    callback=_set_language,
    help="The language of messages, help and tables (default: from LANGUAGE, then LC_ALL, LC_MESSAGES or "
    "LANG, as GNU programs read them; "
    "JSON and the database never change).",
)
@click.option("-v", "--verbose", is_flag=True, help="Log the serial link's lines and the page's requests on stderr.")
def cli(verbose: bool) -> None:
    """Cribboard: an electronic cribbage peg board and the tools around it."""
    if verbose:
        import logging

        logging.basicConfig(level=logging.DEBUG, format="cribboard: %(name)s: %(message)s")


def stop_on_signals():
    """Ctrl-C, SIGTERM and SIGHUP (a kill, a closed terminal) end a serving
    command alike: its `finally` stops what it started. SIGINT is set too:
    a background job of a non-interactive shell (`cmd &`, `nohup`) starts
    with it ignored, and Python keeps that, so Ctrl-C would not stop it."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):  # Windows has no SIGHUP
            signal.signal(getattr(signal, name), stop)
    if hasattr(signal, "SIGUSR2"):  # what every thread is doing, on stderr, for one that seems stuck
        import faulthandler

        faulthandler.register(signal.SIGUSR2, all_threads=True, chain=False)


def open_browser(url: str, headless: bool) -> None:
    # On Linux with no display, webbrowser would start a text browser in this terminal.
    has_screen = sys.platform != "linux" or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if not headless and has_screen:
        webbrowser.open(url)


def serve_until_stopped(server: Any, say: Callable[[], None]) -> None:
    """Say where the server is (say()), then serve until Ctrl-C, SIGTERM or
    SIGHUP (the caller has called stop_on_signals), then stop the server
    (the caller's `finally` stops the rest). A signal that comes while it
    says so, the moment a script has read that it is up, stops it as
    cleanly as one later."""
    import time

    try:
        say()
        status(_("Press Ctrl-C to stop."))
        while True:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()


def http_address(http_addr: str) -> tuple[str, int]:
    host, _sep, port = http_addr.rpartition(":")
    if not host or not port.isdigit() or int(port) > 65535:
        raise UsageError(_("--http wants HOST:PORT, e.g. 127.0.0.1:8121"))
    return host, int(port)


def default_db() -> str:
    return str(Path(platformdirs.user_data_dir("cribboard")) / "cribboard.sqlite3")


db_option = click.option(
    "--db",
    "db_url",
    default=default_db,
    show_default="the user data folder",
    envvar="CRIBBOARD_DB",
    help="The database: a SQLite file (a path, sqlite:///relative.db or "
    "sqlite:////absolute/path.db) "
    "or a PostgreSQL server (postgresql://user@host/dbname).",
)
port_option = click.option(
    "--port", envvar="CRIBBOARD_PORT", help="The board's serial port (default: the one board plugged in)."
)
json_option = click.option("--json", "as_json", is_flag=True, help="JSON instead of a table.")
# A row's id (a game, a match, a sheet): what the databases can hold, so a number past it is a usage error,
# not a traceback from the database's driver.
ROW_ID = click.IntRange(1, MAX_INT)


def open_db(url: str, create: bool = False) -> "Database":
    """The database at url. A SQLite file is made only where the user chose
    to have one: the default location, or a command that writes (create:
    sync and the sheets), which says so; elsewhere a path with no database
    (a typo in --db) is an error, not a new empty database."""
    from cribboard import store

    fresh = None
    create = create or url == default_db()  # (the default: a first `cribboard matches` shows an empty list)
    if not store.is_server(url):
        path = store.path_of(url)
        if not path.exists():
            if not create:
                raise store.DbError(
                    _("there is no database at %(path)s (check --db; `cribboard sync --db %(path)s` makes one)")
                    % {"path": path}
                )  # the error edge caps a line
            fresh = path
    try:
        conn = store.connect(url, create=create)
    except OSError as e:
        raise store.DbError(_("cannot open the database %s: %s") % (url, e.strerror or e)) from None
    if fresh is not None:
        status(_("created the database %s") % fresh)
    return conn


def open_link(port: str | None) -> "BoardLink":
    from cribboard import ports
    from cribboard.linkclient import BoardLink

    return BoardLink(ports.find(port, tell=status), tell=status)  # what it waits for, as it waits


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
    first column (the row's id or name), so every header and value stays whole."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from cribboard.cli.columns import title

    titles = [title(c) for c in columns]
    cells = [[_cell(r.get(c)) for c in columns] for r in rows]
    console = Console(width=None if sys.stdout.isatty() else 10_000)
    for block in column_blocks(titles, cells, console.width):
        table = Table(*[titles[i] for i in block])
        for column in table.columns:
            column.no_wrap = True  # a column too wide for the terminal on its own is folded, never cut
            column.overflow = "fold"
        for row in cells:
            table.add_row(*[Text(row[i]) for i in block])
        console.print(table)


def column_blocks(titles: list[str], cells: list[list[str]], width: int) -> list[list[int]]:
    """The columns (indexes) in blocks whose tables fit width, the first column leading each block."""
    from rich.cells import cell_len

    # A column takes its widest text, a space each side and a border; the table one border more.
    widths = [max([cell_len(t)] + [cell_len(row[i]) for row in cells]) + 3 for i, t in enumerate(titles)]
    blocks, block, used = [], [0], 1 + widths[0]
    for i in range(1, len(titles)):
        if used + widths[i] > width and len(block) > 1:
            blocks.append(block)
            block, used = [0], 1 + widths[0]
        block.append(i)
        used += widths[i]
    return blocks + [block]


def main(argv: list[str] | None = None) -> None:
    i18n.use(i18n.from_environment())
    if sys.stdout is None:  # started with its output closed (`>&-`): a result would be lost without a word
        if sys.stderr is not None:
            click.echo(
                "cribboard: %s: %s"
                % (
                    _("error"),
                    _("the standard output is closed: nothing could be written (send it to /dev/null to drop it)"),
                ),
                err=True,
            )
        sys.exit(1)
    try:
        code = cli.main(args=argv, prog_name="cribboard", standalone_mode=False)
    except CribboardError as e:
        said = "\n".join(clip(line, LINE) for line in printable(str(e)).splitlines())
        click.echo("cribboard: %s: %s" % (_("error"), said), err=True)
        sys.exit(e.exit_code)
    except click.exceptions.NoArgsIsHelpError as e:  # a group given no command: which there are, in one line
        group = e.ctx.command if e.ctx else None
        names = ", ".join(group.list_commands(e.ctx)) if isinstance(group, click.Group) and e.ctx else ""
        path = e.ctx.command_path if e.ctx else "cribboard"
        click.echo(
            "cribboard: %s: %s"
            % (
                _("error"),
                _("%(command)s needs a command: %(commands)s (see `%(command)s --help`)")
                % {"command": path, "commands": names},
            ),
            err=True,
        )
        sys.exit(USAGE_ERROR)
    except click.ClickException as e:
        click.echo("cribboard: %s: %s" % (_("error"), clip(printable(e.format_message()), LINE)), err=True)
        sys.exit(USAGE_ERROR if isinstance(e, click.UsageError) else e.exit_code)
    except click.Abort:
        click.echo("cribboard: %s" % _("aborted"), err=True)
        sys.exit(130)
    except BrokenPipeError:  # the reader of stdout (head, say) wanted no more
        sys.stderr.close()
        os._exit(0)
    except OSError as e:  # a file or device that failed under a command: one line, not a traceback
        where = " %s" % e.filename if getattr(e, "filename", None) else ""
        click.echo("cribboard: %s:%s %s" % (_("error"), where, e.strerror or e), err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
