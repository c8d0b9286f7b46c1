# Piquet at the computer: one deal scored from the hands and the tricks.
import json
from typing import TYPE_CHECKING, Any, BinaryIO

import click

from cribboard.cli import sheetloop
from cribboard.cli.base import cli
from cribboard.cli.options import ROW_ID, db_option, json_option, open_db, read_db
from cribboard.cli.output import emit
from cribboard.errors import UsageError
from cribboard.text.error_words import said
from cribboard.text.i18n import _

if TYPE_CHECKING:
    from cribboard.sheets.piquet import Sheet
    from cribboard.store import Database


@cli.group()
def piquet():
    """Score piquet: a deal from the cards and the tricks, a partie on a sheet."""


@piquet.command("deal")
@click.option("--elder", required=True, metavar="CARDS", help="Elder's 12 cards as held when declaring.")
@click.option("--younger", required=True, metavar="CARDS", help="Younger's (the dealer's) 12 cards as held.")
@click.option(
    "--tricks",
    "won",
    required=True,
    metavar="EY...",
    help="Who won each of the 12 tricks, in order: E (elder) or Y (younger).",
)
@click.option(
    "--elder-dealt",
    metavar="CARDS",
    help="Elder's 12 cards as dealt, if the exchange changed them (carte blanche is judged on the cards dealt).",
)
@click.option("--younger-dealt", metavar="CARDS", help="Younger's 12 cards as dealt, likewise.")
@click.option("--json", "as_json", is_flag=True, help="The deal as one JSON object.")
def piquet_deal(
    elder: str, younger: str, won: str, elder_dealt: str | None, younger_dealt: str | None, as_json: bool
) -> None:
    """Score one deal: the declarations in the table's order (point,
    sequence, set, each good, not good or equal), carte blanche, repique,
    pique, the lead, the tricks, the cards or capot, and each total.

    Cards are written as for `cribboard score` (7S, TH or 10H, QD, AC; or
    the suit symbols), spaces or commas between them, a piquet deck (7 to
    ace). Example: --elder "AS KS QS JS TS AH KH QH AD KD AC KC" --younger
    "9S 8S 7S JH TH 9H 8H QD JD TD QC JC" --tricks EEEEEEEEEEEE."""
    from cribboard.sheets import piquet_deal as pd

    try:
        e, y = pd.hand(elder, "elder"), pd.hand(younger, "younger")
        dealt = None
        if elder_dealt or younger_dealt:
            dealt = (
                pd.hand(elder_dealt, "elder dealt") if elder_dealt else None,
                pd.hand(younger_dealt, "younger dealt") if younger_dealt else None,
            )
        result = pd.deal(e, y, pd.tricks(won), dealt)
    except ValueError as err:
        raise UsageError(said(err)) from None
    if as_json:
        click.echo(json.dumps(result))
    else:
        click.echo("\n".join(pd.lines(result)))


@piquet.command("sheet")
@click.argument("file", required=False, type=click.File("rb"))
@click.option("--names", default="Player 1,Player 2", show_default=True, help="The two players, comma-separated.")
@click.option(
    "--first-dealer",
    type=click.IntRange(1, 2),
    default=1,
    show_default=True,
    help="Who deals the first deal (1 or 2: the order of --names).",
)
@click.option("--resume", type=ROW_ID, help="Go on with a partie already in the database.")
@db_option
@click.option("--json", "as_json", is_flag=True, help="At the end, the partie as JSON instead of the sheet.")
def piquet_sheet(
    file: BinaryIO | None, names: str, first_dealer: int, resume: int | None, db_url: str, as_json: bool
) -> None:
    """Keep a partie without a board: one deal a line, from FILE or typed in.

    A line is the deal's points of each player, in the order of --names
    (e.g. '45 12', as counted at the table), or the deal's cards, scored
    as `cribboard piquet deal` scores them and shown before they are added:
    'cards ELDER / YOUNGER / TRICKS', each hand's 12 cards as held, the
    tricks' winners as 12 letters E and Y, and where the exchange matters
    '/ ELDER-DEALT / YOUNGER-DEALT' ('-' for a hand not given). Elder is
    the one who did not deal (the prompt says who). After each deal: the
    running totals; after the sixth, the result with the rubicon (the
    loser under 100 loses both totals and 100), or two more deals on a tie
    (a tie after eight is a drawn partie). 'undo' removes the last deal,
    'fix N A B' (or 'fix N cards ...') rewrites deal N, in a file too;
    typed, 'quit' stops (an empty line does nothing). Saved after every
    deal; a finished partie is listed by `cribboard matches`, counted by
    `stats` and exported like a board's (board "sheet:piquet")."""
    from cribboard.cli import piquet_view as view
    from cribboard.sheets import piquet as ps
    from cribboard.sheets import storage

    text = sheetloop.text_of(file)  # before the database: a file or names that are wrong make none
    players: list[str] = []
    if resume is None:
        players = sheetloop.table_names(names, 2, _("--names wants two names separated by a comma"))
        if players[0] == players[1]:
            raise UsageError(_("--names: the two players need two names"))
    conn = open_db(db_url, create=True)
    if resume is not None:
        sheet = _kept(conn, resume)
    else:
        sheet = ps.Sheet(players, first_dealer - 1)
    sheet_id = resume

    def apply(text: str) -> list[str]:
        nonlocal sheet, sheet_id
        sheet, change = ps.apply(sheet, text)
        sheet_id = storage.save_partie(conn, sheet, sheet_id)
        return view.told(sheet, change)

    def intro() -> list[str]:
        return [
            _(
                "One deal a line: %(first)s's points, then %(second)s's (or: cards ELDER / YOUNGER / TRICKS); "
                "undo; fix N A B; quit."
            )
            % {"first": sheet.names[0], "second": sheet.names[1]}
        ] + (view.totals_lines(sheet) if sheet.deals() else [])

    def going_on() -> str:
        if sheet_id is None or sheet.game.over():
            return ""  # nothing kept, or over: nothing to go on with
        return " " + _("The partie is saved as piquet sheet %(id)d: go on with `%(command)s`.") % {
            "id": sheet_id,
            "command": sheetloop.resume_command("piquet", sheet_id, db_url),
        }

    sheetloop.run(text, intro, lambda: view.prompt(sheet), apply, going_on)
    sheetloop.finish(
        json.dumps(ps.as_json(sheet, sheet_id), indent=1) if as_json else "\n".join(view.rows(sheet)),
        "piquet",
        sheet_id,
        sheet.game.over(),
        _("saved as piquet sheet %d") % (sheet_id or 0),
        db_url,
    )


@piquet.command("list")
@db_option
@json_option
def piquet_list(db_url: str, as_json: bool) -> None:
    """The parties kept on the sheet (finished ones are in `cribboard matches` too)."""
    from cribboard.sheets import storage

    def shown(r: dict[str, Any]) -> dict[str, Any]:
        res = r["result"]
        if r["problem"]:
            said = _("cannot be read: %s") % r["problem"]
        elif res is None:
            said = ""
        elif res["winner"] is None:
            said = _("draw")
        else:
            said = "%s: %s, %d" % (res["winner"], _(res["result"]), res["points"])  # Ann: rubicon, 312
        players = "?" if r["totals"] is None else ", ".join("%s %d" % nt for nt in zip(r["names"], r["totals"]))
        return {"players": players, "result": said}

    emit(storage.parties(read_db(db_url)), ["id", "deals", "finished", "players", "result", "updated"], as_json, shown)


@piquet.command("show")
@click.argument("sheet_id", type=ROW_ID)
@db_option
@json_option
def piquet_show(sheet_id: int, db_url: str, as_json: bool) -> None:
    """Print one partie's sheet."""
    from cribboard.cli import piquet_view as view
    from cribboard.sheets import piquet as ps

    sheet = _kept(read_db(db_url), sheet_id)
    if as_json:
        click.echo(json.dumps(ps.as_json(sheet, sheet_id), indent=1))
    else:
        click.echo("\n".join(view.rows(sheet)))


def _kept(conn: "Database", sheet_id: int) -> "Sheet":
    """A kept partie's sheet; a UsageError that says why not."""
    from cribboard.sheets import storage

    return sheetloop.read_back(
        storage.load_partie,
        conn,
        sheet_id,
        _("no piquet sheet %d in the database (see cribboard piquet list)"),
        _("piquet sheet %(id)d cannot be read back: %(problem)s"),
    )
