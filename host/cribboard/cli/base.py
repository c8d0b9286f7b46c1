# The `cribboard` command's frame: the group and the conventions every
# subcommand shares (cli/__init__.py lists the modules that add them, by
# command group). A table of subcommands in the style of mpremote and git.
# Data goes to stdout (--json wherever data is printed), progress and status
# to stderr (cli.output). Every error is one line on stderr, never a
# traceback: exit status 1 for a failure at run time, 2 for a mistake in
# what was asked.
import io
import os
import sys

import click

from cribboard import __version__
from cribboard.cli.localized import TranslatedGroup
from cribboard.cli.output import printable
from cribboard.errors import CribboardError, UsageError
from cribboard.text import i18n
from cribboard.text.i18n import _
from cribboard.text.quote import LINE, clip

USAGE_ERROR = UsageError.exit_code

ENVIRONMENT = """\b
Environment:
  CRIBBOARD_PORT         the board's serial port (as --port)
  CRIBBOARD_DB           the database (as --db)
  CRIBBOARD_DB_WAIT      seconds to wait for a database another cribboard
                         is writing to (default 30)
  CRIBBOARD_LINK_WAIT    seconds to wait for a board's answer, each of its
                         three tries (default 3)
  CRIBBOARD_BACKUP_CHECK seconds between serve's looks for a night or a
                         tournament just ended, to back it up (default 30)
  CRIBBOARD_HOME         a Cribboard checkout to take the firmware and
                         hardware data from, instead of the installed ones
  CRIBBOARD_SIM_RUNTIME  'cpython' runs the simulated board on CPython
                         even where MicroPython's unix port is installed
  NO_COLOR               plain text, no colours

\b
Exit status: 0 done, 1 failed (no board, a sync cut off, a database
error), 2 bad usage or input."""


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


def _never_unwritable() -> None:
    """Output whose characters the terminal's encoding has not (PYTHONIOENCODING=ascii, a C locale) shown as
    escapes (\\xe9), not a UnicodeEncodeError's traceback in the middle of a table."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")


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
    if sys.stdin is None:  # started with its input closed (`<&-`): read as an input with nothing in it
        sys.stdin = open(os.devnull)  # (the process's own, for as long as it runs)
    _never_unwritable()
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
