# What the night's and the tournament's commands share: which one a command
# is about (--night N, --tournament N; the latest if not given), read for a
# listing or opened to change, what one begins with, a table ranked the
# tournament's way, and the commands that are one command for both (end,
# reopen, list), each group giving its own words and columns.
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import click

from cribboard.cli.options import ROW_ID, db_option, json_option, open_db, read_db
from cribboard.cli.output import emit, status, wrapped
from cribboard.text.i18n import _

if TYPE_CHECKING:
    from cribboard.event.tables import Seat
    from cribboard.night.director import Night
    from cribboard.night.scheme import Scheme
    from cribboard.store import Database

Command = Callable[..., Any]
_SCHEME_PARTS = ("win", "skunk", "double_skunk", "loss", "bye_points", "bye_spread")
Rows = tuple[list[dict[str, Any]], list[str]]  # a listing's rows, and the columns a table shows


class Event(Protocol):
    """A night or a tournament, as the commands they share see it."""

    @property
    def id(self) -> int: ...


E = TypeVar("E", bound=Event)


@dataclass(frozen=True)
class EventKind(Generic[E]):
    noun: str  # "night" or "tournament": its option (--night) and the id's parameter (night_id)
    director: str  # the module that loads and ends one (imported when a command runs: the CLI starts fast)
    kept: str  # the store's module that lists them
    help: str  # the option's

    def option(self, fn: Command) -> Command:
        return click.option("--" + self.noun, self.noun + "_id", type=ROW_ID, help=self.help)(fn)

    def chosen(self, fn: Command) -> Command:
        """The options of a command on one event: which (the option above), and the database."""
        return self.option(db_option(fn))

    def listed(self, fn: Command) -> Command:
        """The options of a command that shows an event: which, the database, and --json."""
        return self.chosen(json_option(fn))

    def read(self, db_url: str, event_id: int | None) -> E:
        """The event (the latest if no id), read without a write."""
        return import_module(self.director).load(read_db(db_url), event_id)

    def add_end(self, group: click.Group, has_ended: str, final: Callable[[E], Rows], help: str) -> None:
        """`end`: the event ended (has_ended says so, with its id), and its final rows shown."""

        @group.command("end", help=help)
        @click.option("--early", is_flag=True, help="End it as it stands, with games not in (they are not played).")
        @self.listed
        def end(early: bool, db_url: str, as_json: bool, **which: int | None) -> None:
            director = import_module(self.director)
            db = open_db(db_url)
            event: E = director.end(db, director.load(db, which[self.noun + "_id"]), early)
            status(_(has_ended) % event.id)
            emit(*final(event), as_json)

    def add_reopen(self, group: click.Group, reopened: str, help: str) -> None:
        """`reopen`: the event's end undone (a slip), until another begins (the one ended last, if none is
        named)."""

        @group.command("reopen", help=help)
        @self.chosen
        def reopen(db_url: str, **which: int | None) -> None:
            director = import_module(self.director)
            db = open_db(db_url)
            event: E = director.reopen(db, director.ended(db, which[self.noun + "_id"]))
            status(_(reopened) % event.id)

    def add_codes(self, group: click.Group, night_of: "Callable[[E], Night]", help: str) -> None:
        """`codes`: each player's code for their own page of the event (given to those who have none); with
        --new NAME, that player's code given anew and the old one void."""

        @group.command("codes", help=help)
        @click.option("--new", "anew", metavar="PLAYER", help="Give this player a new code: the old one opens nothing.")
        @self.listed
        def codes(anew: str | None, db_url: str, as_json: bool, **which: int | None) -> None:
            from cribboard.event.codes import shown
            from cribboard.night.codes import given

            director = import_module(self.director)
            db = open_db(db_url)
            night = night_of(director.load(db, which[self.noun + "_id"]))
            number = None if anew is None else night.roster.find(anew)
            held = given(db, night, number)
            if number is not None:
                status(_("%s has a new code: the old one opens nothing now") % night.roster.label(number))
            rows = [{"number": n, "player": night.roster.label(n), "code": shown(held[n])} for n in night.players]
            emit(rows, ["number", "player", "code"], as_json)

    def add_list(self, group: click.Group, columns: list[str], help: str) -> None:
        """`list`: every event of the kind, the latest last."""

        @group.command("list", help=help)
        @db_option
        @json_option
        def listing(db_url: str, as_json: bool) -> None:
            emit(import_module(self.kept).listing(read_db(db_url)), columns, as_json)


def scheme_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(
        (
            click.option("--win", type=int, help="Game points for a win (the ACC: 2)."),
            click.option("--skunk", type=int, help="Game points for a skunk win (the ACC: 3)."),
            click.option("--double-skunk", type=int, help="Game points for a double skunk win (the ACC: 3)."),
            click.option("--loss", type=int, help="Game points for a loss (the ACC: 0)."),
            click.option("--bye-points", type=int, help="Game points for a bye (default 2)."),
            click.option("--bye-spread", type=int, help="Spread for a bye (default 0)."),
            click.option(
                "--bye-wins/--bye-no-win", default=None, help="A bye counts as a game won (default: it does)."
            ),
        )
    ):
        fn = option(fn)
    return fn


def scheme_given(parts: dict[str, Any]) -> dict[str, Any]:
    """The scheme's parts given on the command line."""
    return {k: v for k, v in parts.items() if k in (*_SCHEME_PARTS, "bye_wins") and v is not None}


def beginning(
    db_url: str,
    tables: list[tuple[str, str | None]],
    entrants: int,
    parts: dict[str, Any],
    base: Callable[["Database"], "Scheme"],
) -> tuple["Database", list["Seat"], "Scheme | None"]:
    """What a new night or tournament begins with: its database (made if need be), its tables (those
    asked for, else the club's boards and as many more as the entrants need), and the scheme: the parts
    given over base's (None if none is: the event's own default)."""
    from cribboard.night import director, scheme

    db = open_db(db_url, create=True)
    seats = director.tables_for(db, tables, entrants)
    given = scheme_given(parts)
    return db, seats, scheme.checked(**{**base(db).__dict__, **given}) if given else None


def ranked(
    rows: list[dict[str, Any]], columns: list[str], as_json: bool, shown: Callable[[Any], Any] | None = None
) -> None:
    """A table ranked the tournament's way, and its order said on stderr."""
    from cribboard.ranking import TOURNAMENT

    emit(rows, columns, as_json, shown)
    if rows:
        status(wrapped(TOURNAMENT.note()))  # (a terminal's 80 columns, in every language)
