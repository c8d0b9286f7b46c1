# Click's help screens in the reader's language: the commands' and options'
# help is written in English and translated as click formats it, once the
# command line has said which language (--lang) or the environment has.
import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from cribboard.text.i18n import _


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
