# Piquet at the computer: one deal scored from the hands and the tricks.
import json

import click

from cribboard.cli.base import cli
from cribboard.errors import UsageError


@cli.group()
def piquet():
    """Score piquet: a deal from the cards and the tricks."""


@piquet.command("deal")
@click.option("--elder", required=True, metavar="CARDS", help="Elder's 12 cards as held when declaring.")
@click.option("--younger", required=True, metavar="CARDS", help="Younger's (the dealer's) 12 cards as held.")
@click.option("--tricks", "won", required=True, metavar="EY...",
              help="Who won each of the 12 tricks, in order: E (elder) or Y (younger).")
@click.option("--elder-dealt", metavar="CARDS", help="Elder's 12 cards as dealt, if the exchange changed them "
              "(carte blanche is judged on the cards dealt).")
@click.option("--younger-dealt", metavar="CARDS", help="Younger's 12 cards as dealt, likewise.")
@click.option("--json", "as_json", is_flag=True, help="The deal as one JSON object.")
def piquet_deal(elder, younger, won, elder_dealt, younger_dealt, as_json):
    """Score one deal: the declarations in the table's order (point,
    sequence, set, each good, not good or equal), carte blanche, repique,
    pique, the lead, the tricks, the cards or capot, and each total.

    Cards are written as for `cribboard score` (7S, TH or 10H, QD, AC; or
    the suit symbols), spaces or commas between them, a piquet deck (7 to
    ace). Example: --elder "AS KS QS JS TS AH KH QH AD KD AC KC" --younger
    "9S 8S 7S JH TH 9H 8H QD JD TD QC JC" --tricks EEEEEEEEEEEE."""
    from cribboard import piquet_deal as pd

    try:
        e, y = pd.hand(elder, "elder"), pd.hand(younger, "younger")
        dealt = None
        if elder_dealt or younger_dealt:
            dealt = (pd.hand(elder_dealt, "elder (dealt)") if elder_dealt else e,
                     pd.hand(younger_dealt, "younger (dealt)") if younger_dealt else y)
        result = pd.deal(e, y, pd.tricks(won), dealt)
    except ValueError as err:
        raise UsageError(str(err)) from None
    if as_json:
        click.echo(json.dumps(result))
    else:
        click.echo("\n".join(pd.lines(result)))
