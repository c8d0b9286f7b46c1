# The loop of a score sheet kept at the computer (barbu's, piquet's): one
# line at a time, typed at a prompt or read from a file or a pipe. Typed,
# the table sees every report and a bad line is said and skipped; read, the
# sheet printed at the end is the data, stderr gets only what needs a look,
# and a bad line stops the reading with how to go on from there.
import io
import shlex
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO, TextIO, TypeVar

import click

from cribboard.cli.output import printable, status
from cribboard.errors import UsageError
from cribboard.sheets.change import Routine
from cribboard.text.error_words import said
from cribboard.text.i18n import _
from cribboard.text.quote import LINE, NoLineEnd, clip, input_line, quote, read_line

if TYPE_CHECKING:
    from cribboard.store import Database

T = TypeVar("T")

SHEET_MAX = 1 << 20  # bytes of a sheet's file: a rubber is a few KB


def table_names(text: str, count: int, wrong_count: str) -> list[str]:
    """--names: count names, comma-separated, each a name by the rule the board applies (cribcore.names);
    UsageError (wrong_count, or which name is not one and why) before anything is opened."""
    from cribcore.names import name_problem

    names = [n.strip() for n in text.split(",")]
    if len(names) != count:
        raise UsageError(wrong_count)
    for n in names:
        problem = name_problem(n)
        if problem:
            raise UsageError(
                _("--names: %(name)s is not a name: %(problem)s") % {"name": quote(n), "problem": said(problem)}
            )
    return names


def text_of(file: BinaryIO | None) -> TextIO | None:
    """A sheet's file, read whole before anything is made of it (it is small): one that is not UTF-8
    text, or too big to be a sheet, is a usage error, and no database is made for it."""
    if file is None:
        return None
    data = file.read(SHEET_MAX + 1)
    if len(data) > SHEET_MAX:
        raise UsageError(
            _("%(file)s is over %(most)d KB: not a score sheet")
            % {"file": printable(file.name), "most": SHEET_MAX // 1024}
        )
    try:
        return io.StringIO(data.decode("utf-8-sig"), newline=None)
    except UnicodeDecodeError as e:
        raise UsageError(
            _("%(file)s, line %(line)d: not UTF-8 text (save it as UTF-8); nothing was entered")
            % {"file": printable(file.name), "line": data[: e.start].count(b"\n") + 1}
        ) from None


def run(
    file: TextIO | None,
    intro: Callable[[], list[str]],
    prompt: Callable[[], str],
    apply: Callable[[str], list[str]],
    resume_hint: Callable[[], str],
) -> None:
    """apply(text) enters one line and saves it, returning what to tell the
    table (ValueError, nothing entered, if the line cannot be right; a
    told.Routine line is for a typing table only); resume_hint() says how
    to go on once something is saved."""
    typing = file is None and sys.stdin.isatty()
    source = file or sys.stdin

    def say(text: str) -> None:
        if typing:
            click.echo(text)
        elif not isinstance(text, Routine):
            click.echo(text, err=True)

    if typing:
        for line in intro():
            say(line)
    number = 0
    while True:
        if typing:
            try:
                line = click.prompt(prompt() + "\n>", default="", show_default=False, prompt_suffix=" ")
            except click.Abort:  # Ctrl-D or Ctrl-C: as quit (everything is saved already)
                click.echo("", err=True)
                break
        else:
            try:
                line = read_line(source)
                line.encode()  # (bytes stdin could not decode come as lone surrogates: surrogateescape)
            except NoLineEnd as e:
                raise UsageError(
                    _("line %(number)d: %(problem)s") % {"number": number + 1, "problem": e} + resume_hint()
                ) from None
            except (UnicodeDecodeError, UnicodeEncodeError):  # a pipe's text that is not UTF-8 (a file's: text_of)
                raise UsageError(
                    _("line %(number)d: not UTF-8 text (nothing from this line on was entered).")
                    % {"number": number + 1}
                    + resume_hint()
                ) from None
            if not line:
                break
        number += 1
        try:
            text = input_line(line).split("#", 1)[0].strip()  # a 10 MB line is refused, not parsed
            if not text:
                continue  # an empty line does nothing: only quit quits
            if text.lower() in ("quit", "q", _("quit")):
                break
            told = apply(text)
        except ValueError as e:
            problem = clip(said(e), LINE)
            if typing:
                click.echo(printable(_("not entered: %s") % problem), err=True)
                continue
            raise UsageError(
                _("line %(number)d: %(problem)s (nothing from this line on was entered).")
                % {"number": number, "problem": problem}
                + resume_hint()
            ) from None
        for told_line in told:
            say(told_line)


def finish(text: str, game: str, sheet_id: int | None, over: bool, saved: str, db_url: str) -> None:
    """The sheet at the end (text: its rows or its JSON), then on stderr
    where it is kept (saved: "saved as ... N") and, unfinished, how to go on."""
    click.echo(text)
    if sheet_id is not None:
        status(saved)
        if not over:  # (a line of its own: the command whole, to copy)
            status("  " + _("(unfinished: `%s` to go on)") % resume_command(game, sheet_id, db_url))


def resume_command(game: str, sheet_id: int, db_url: str) -> str:
    """The command that goes on with this sheet (with --db only if it was given)."""
    given = click.get_current_context().get_parameter_source("db_url") != click.core.ParameterSource.DEFAULT
    return "cribboard %s sheet --resume %d%s" % (game, sheet_id, " --db %s" % shlex.quote(db_url) if given else "")


def read_back(
    load: "Callable[[Database, int], T]", conn: "Database", sheet_id: int, missing: str, unreadable: str
) -> T:
    """A kept sheet, loaded; a UsageError for an id the database has none of (missing: its words, %d the id)
    or one it cannot read back (unreadable: %(id)d and %(problem)s)."""
    try:
        return load(conn, sheet_id)
    except KeyError:
        raise UsageError(missing % sheet_id) from None
    except ValueError as e:
        raise UsageError(unreadable % {"id": sheet_id, "problem": said(e)}) from None
