# Click's help screens in the reader's language: the commands' and options'
# help is written in English and translated as click formats it, once the
# command line has said which language (--lang) or the environment has.
import inspect
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from cribboard.text.i18n import N_, _

# The words click's placeholders are made of (an argument's name, a value's type), each once: shown in the
# reader's language, as GNU tools show theirs. tests/host/test_click_words.py checks every command's are here.
PLACEHOLDER_WORDS = frozenset(
    (
        N_("ADDRESS"),
        N_("BOARD"),
        N_("CARDS"),
        N_("DATE"),
        N_("DIRECTORY"),
        N_("ENTRANTS"),
        N_("FILE"),
        N_("FILES"),
        N_("FIRST"),
        N_("FIRST_SCORE"),
        N_("FOLDER"),
        N_("GAME"),
        N_("GAME_ID"),
        N_("HOST"),
        N_("HOURS"),
        N_("ID"),
        N_("INTEGER"),
        N_("INTEGER RANGE"),
        N_("NAME"),
        N_("NAMES"),
        N_("NUMBER"),
        N_("PATH"),
        N_("PLAYER"),
        N_("PLAYERS"),
        N_("PLAYER_A"),
        N_("PLAYER_B"),
        N_("PORT"),
        N_("ROUND"),
        N_("RUBBER_ID"),
        N_("SECOND"),
        N_("SECOND_SCORE"),
        N_("SHEET_ID"),
        N_("TABLE"),
        N_("TEXT"),
        N_("URL"),
    )
)
_CLICKS_OWN = (N_("[OPTIONS]"), N_("COMMAND [ARGS]..."))  # a command's and a group's, translated whole
_WORD = re.compile(r"[A-Z][A-Z_]+(?: RANGE)?")  # (a single letter, N or A+B, is a placeholder in every language)


def placeholder(english: str) -> str:
    """A placeholder as click makes it ("[BOARD]", "ENTRANTS...", "HOST:PORT"), its words translated."""
    return _WORD.sub(lambda m: _(m.group()) if m.group() in PLACEHOLDER_WORDS else m.group(), english)


@contextmanager
def _translated(command: Any, ctx: click.Context | None = None) -> Iterator[None]:  # a click.Command
    """The command's help, its options' and (given ctx) its placeholders, in the current language while
    click formats them (they are written in English, and the language is known only once the command line
    is read)."""
    saved: list[tuple[Any, str, Any]] = [
        (command, "help", command.help),
        (command, "short_help", command.short_help),
        (command, "epilog", command.epilog),
        (command, "options_metavar", command.options_metavar),
    ]
    if isinstance(command, click.Group):
        saved.append((command, "subcommand_metavar", command.subcommand_metavar))
    for param in command.params:
        saved.append((param, "help", getattr(param, "help", None)))
        saved.append((param, "show_default", getattr(param, "show_default", None)))
        saved.append((param, "metavar", param.metavar))
    try:
        for obj, name, value in saved:
            if name == "metavar":
                continue
            if isinstance(value, str) and value:
                # Click keeps a docstring as written and cleans it when it shows it; the catalogue has it clean.
                setattr(obj, name, _(inspect.cleandoc(value).split("\f")[0].rstrip() if obj is command else value))
        for param in command.params:
            if ctx is not None and not getattr(param, "is_flag", False) and not getattr(param, "count", False):
                param.metavar = placeholder(param.make_metavar(ctx))
        yield
    finally:
        for obj, name, value in saved:
            if hasattr(obj, name):
                setattr(obj, name, value)


class _TranslatedHelp:
    """Click's help screens, in the current language."""

    def get_help(self, ctx: click.Context) -> str:
        with _translated(self, ctx):
            return super().get_help(ctx)  # type: ignore[misc]

    def get_usage(self, ctx: click.Context) -> str:  # (also shown above a usage error)
        with _translated(self, ctx):
            return super().get_usage(ctx)  # type: ignore[misc]

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)  # type: ignore[misc]
        except click.BadParameter as e:  # (its words, an argument's placeholder among them, are made when said)
            with _translated(self, ctx):
                said = e.format_message()
            raise click.UsageError(said, e.ctx) from None

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
