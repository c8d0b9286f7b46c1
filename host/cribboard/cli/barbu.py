# The barbu score sheet (a card game scored with pen and paper, kept here).
import json
from typing import TYPE_CHECKING, Any, BinaryIO

import click

from cribboard.cli import sheetloop
from cribboard.cli.base import cli
from cribboard.cli.options import ROW_ID, db_option, json_option, open_db, read_db
from cribboard.cli.output import emit
from cribboard.errors import UsageError
from cribboard.text.i18n import _

if TYPE_CHECKING:
    from cribboard.store import Database


@cli.group()
def barbu():
    """Keep a barbu score sheet: checked deal by deal, kept in the database."""


def _names(text: str) -> list[str]:
    return sheetloop.table_names(text, 4, _("--names wants four names separated by commas"))


@barbu.command("sheet")
@click.argument("file", required=False, type=click.File("rb"))
@click.option("--names", default="Seat 1,Seat 2,Seat 3,Seat 4", show_default=True, help="The four players, seats 1-4.")
@click.option("--first-dealer", type=click.IntRange(1, 4), default=1, show_default=True)
@click.option("--resume", type=ROW_ID, help="Go on with a rubber already in the database.")
@click.option(
    "--partners",
    metavar="A+B,C+D",
    help="The partnership game: two pairs of seats (e.g. 1+3,2+4) whose "
    "totals are pooled, shown and exported beside each player's.",
)
@db_option
@click.option("--json", "as_json", is_flag=True, help="At the end, the rubber as JSON instead of the sheet.")
def barbu_sheet(
    file: BinaryIO | None,
    names: str,
    first_dealer: int,
    resume: int | None,
    partners: str | None,
    db_url: str,
    as_json: bool,
) -> None:
    """Enter deals, one line each, from FILE or typed in.

    A line is CONTRACT RESULT [| DOUBLES] with seats 1-4, e.g.
    'queens 1 3 0 0 | 2x1 3x1!' (queens taken by seats 1-4; seat 2 doubled
    seat 1, seat 3 doubled seat 1 and was redoubled). Contracts: barbu SEAT,
    hearts N N N N ace=SEAT, queens, tricks, trumps N N N N, last2 SEAT SEAT,
    domino SEATS-IN-ORDER-OUT (the last may be left out). The dealer doubles
    no one; a doubled player may redouble (!) the one who doubled him.
    'undo' removes the last deal, 'fix N DEAL' rewrites deal N (the later
    deals are checked again), in a file too; typed, 'quit' stops (an empty
    line does nothing). The sheet is saved after every change. After each
    deal: its scores, the running totals, the check, and how often each
    player has doubled the dealer (each must twice a round: a shortfall is
    recorded and marked, not refused)."""
    from cribboard.cli import barbu_view as view
    from cribboard.sheets import barbu as sheet
    from cribboard.sheets import storage
    from cribrules import barbu as rules

    text = sheetloop.text_of(file)  # before the database: a file, names or pairs that are wrong make none
    pairs = None
    if partners is not None:
        try:
            pairs = sheet.parse_partners(partners)
        except ValueError as e:
            raise UsageError("--partners: %s" % e if not str(e).startswith("--partners") else str(e)) from None
    players = _names(names) if resume is None else []
    conn = open_db(db_url, create=True)
    if resume is not None:
        rubber, players, kept_pairs = _kept(conn, resume)
        rubber_id = resume
        if pairs is not None and kept_pairs is not None and pairs != kept_pairs:
            raise UsageError(
                _("barbu rubber %(id)d is played in pairs %(pairs)s: --partners cannot change them")
                % {"id": resume, "pairs": ",".join("%d+%d" % (a + 1, b + 1) for a, b in kept_pairs)}
            )
        pairs = pairs or kept_pairs
    else:
        rubber, rubber_id = rules.Rubber(first_dealer - 1, players), None

    def apply(text: str) -> list[str]:
        nonlocal rubber, rubber_id
        rubber, change = sheet.apply(rubber, text)
        rubber_id = storage.save_rubber(conn, rubber, players, rubber_id, pairs)
        return view.told(rubber, change)

    def prompt() -> str:
        if rubber.over():
            return _("the rubber is over")
        return _("deal %(number)d, %(dealer)s deals; left: %(left)s") % {
            "number": len(rubber.deals) + 1,
            "dealer": players[rubber.dealer()],
            "left": ", ".join(sheet.contract_name(c) for c in rubber.remaining()),
        }

    def going_on() -> str:
        if rubber_id is None or rubber.over():
            return ""  # nothing kept, or over: nothing to go on with
        return " " + _("The rubber is saved as barbu rubber %(id)d: go on with `%(command)s`.") % {
            "id": rubber_id,
            "command": sheetloop.resume_command("barbu", rubber_id, db_url),
        }

    sheetloop.run(
        text, lambda: [_("One deal a line; undo; fix N DEAL; quit.")] + view.duty_lines(rubber), prompt, apply, going_on
    )
    sheetloop.finish(
        json.dumps(dict(sheet.record(rubber, players, pairs), id=rubber_id), indent=1)
        if as_json
        else "\n".join(view.sheet_rows(rubber, players, pairs)),
        "barbu",
        rubber_id,
        rubber.over(),
        _("saved as barbu rubber %d") % (rubber_id or 0),
        db_url,
    )


@barbu.command("list")
@db_option
@json_option
def barbu_list(db_url: str, as_json: bool) -> None:
    """The barbu rubbers in the database."""
    from cribboard.sheets import storage

    def shown(r: dict[str, Any]) -> dict[str, Any]:
        out = {"players": ", ".join("%s %d" % (n, t) for n, t in zip(r["names"], r["totals"]))}
        if r["partners"]:
            pairs = ", ".join(
                "%s+%s %d" % (r["names"][a], r["names"][b], r["totals"][a] + r["totals"][b]) for a, b in r["partners"]
            )
            out["players"] += "; " + _("pairs %s") % pairs
        return out

    emit(storage.rubbers(read_db(db_url)), ["id", "deals", "finished", "players", "updated"], as_json, shown)


@barbu.command("show")
@click.argument("rubber_id", type=ROW_ID)
@db_option
@json_option
def barbu_show(rubber_id: int, db_url: str, as_json: bool) -> None:
    """Print one rubber's score sheet."""
    from cribboard.cli import barbu_view as view
    from cribboard.sheets import barbu as sheet

    rubber, players, pairs = _kept(read_db(db_url), rubber_id)
    if as_json:
        click.echo(json.dumps(sheet.record(rubber, players, pairs), indent=1))
    else:
        click.echo("\n".join(view.sheet_rows(rubber, players, pairs)))


def _kept(conn: "Database", rubber_id: int) -> tuple[Any, list[str], list[list[int]] | None]:
    """A kept rubber, its players and its pairs; a UsageError that says why not."""
    from cribboard.sheets import storage

    return sheetloop.read_back(
        storage.load_rubber,
        conn,
        rubber_id,
        _("no barbu rubber %d in the database (see cribboard barbu list)"),
        _("barbu rubber %(id)d cannot be read back: %(problem)s"),
    )
