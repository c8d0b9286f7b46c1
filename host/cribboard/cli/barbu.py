# The barbu score sheet (a card game scored with pen and paper, kept here).
import json
import sys

import click

from cribboard.cli.base import (
    cli,
    db_option,
    emit,
    json_option,
    open_db,
    status,
)
from cribboard.errors import UsageError


@cli.group()
def barbu():
    """Keep a barbu score sheet: checked deal by deal, kept in the database."""


def _names(text):
    names = [n.strip() for n in text.split(",")]
    if len(names) != 4 or not all(names):
        raise UsageError("--names wants four names separated by commas")
    return names


@barbu.command("sheet")
@click.argument("file", required=False, type=click.File("r"))
@click.option("--names", default="Seat 1,Seat 2,Seat 3,Seat 4", show_default=True, help="The four players, seats 1-4.")
@click.option("--first-dealer", type=click.IntRange(1, 4), default=1, show_default=True)
@click.option("--resume", type=int, help="Go on with a rubber already in the database.")
@db_option
@click.option("--json", "as_json", is_flag=True, help="At the end, the rubber as JSON instead of the sheet.")
def barbu_sheet(file, names, first_dealer, resume, db_url, as_json):
    """Enter deals, one line each, from FILE or typed in.

    A line is CONTRACT RESULT [| DOUBLES] with seats 1-4, e.g.
    'queens 1 3 0 0 | 2x1 3x1!' (queens taken by seats 1-4; seat 2 doubled
    seat 1, seat 3 doubled seat 1 and was redoubled). Contracts: barbu SEAT,
    hearts N N N N ace=SEAT, queens, tricks, trumps N N N N, last2 SEAT SEAT,
    domino SEATS-IN-ORDER-OUT. Typing, 'undo' takes back the last deal and
    'quit' stops (the sheet is saved after every deal)."""
    from cribboard import barbu_sheet as sheet
    from cribcore import barbu as rules

    conn = open_db(db_url)
    if resume is not None:
        try:
            rubber, players = sheet.load(conn, resume)
        except KeyError:
            raise UsageError("no barbu rubber %d in the database (see cribboard barbu list)" % resume) from None
        rubber_id = resume
    else:
        rubber, players = rules.Rubber(first_dealer - 1), _names(names)
        rubber_id = None
    typing = file is None and sys.stdin.isatty()
    source = file or sys.stdin
    number = 0
    while not rubber.over():
        if typing:
            click.echo("deal %d, %s deals; left: %s" % (len(rubber.deals) + 1, players[rubber.dealer()],
                                                        " ".join(rubber.remaining())))
            line = click.prompt(">", default="quit", show_default=False, prompt_suffix=" ")
        else:
            line = source.readline()
            if not line:
                break
        number += 1
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if typing and text in ("quit", "q"):
            break
        if typing and text == "undo":
            if rubber.deals:
                again = rules.Rubber(rubber.first_dealer)
                for _, c, r, d, _ in rubber.deals[:-1]:
                    again.add(c, r, d)
                rubber = again
                rubber_id = sheet.save(conn, rubber, players, rubber_id)
            continue
        try:
            contract, result, doubles = sheet.parse_deal(text)
            rubber.add(contract, result, doubles)
        except ValueError as e:
            if typing:
                click.echo("not entered: %s" % e, err=True)
                continue
            raise UsageError("line %d: %s (nothing after it was entered)" % (number, e)) from None
        finally:
            if rubber.deals:
                rubber_id = sheet.save(conn, rubber, players, rubber_id)
    if as_json:
        click.echo(json.dumps(dict(rubber.to_record(), names=players, id=rubber_id), indent=1))
    else:
        click.echo("\n".join(sheet.sheet_rows(rubber, players)))
    if rubber_id is not None:
        status("saved as barbu rubber %d%s" % (rubber_id, "" if rubber.over() else
                                               " (unfinished: --resume %d to go on)" % rubber_id))


@barbu.command("list")
@db_option
@json_option
def barbu_list(db_url, as_json):
    """The barbu rubbers in the database."""
    from cribboard import barbu_sheet as sheet

    emit(sheet.listing(open_db(db_url)), ["id", "deals", "finished", "players", "updated"], as_json,
         lambda r: {"players": ", ".join("%s %d" % (n, t) for n, t in zip(r["names"], r["totals"]))})


@barbu.command("show")
@click.argument("rubber_id", type=int)
@db_option
@json_option
def barbu_show(rubber_id, db_url, as_json):
    """Print one rubber's score sheet."""
    from cribboard import barbu_sheet as sheet

    try:
        rubber, players = sheet.load(open_db(db_url), rubber_id)
    except KeyError:
        raise UsageError("no barbu rubber %d in the database (see cribboard barbu list)" % rubber_id) from None
    if as_json:
        click.echo(json.dumps(dict(rubber.to_record(), names=players), indent=1))
    else:
        click.echo("\n".join(sheet.sheet_rows(rubber, players)))
