# Scoring a hand and a pegging play: calculators, no board needed.
import json
import sys

import click

from cribboard import calc
from cribboard.cli.base import (
    USAGE_ERROR,
    cli,
)
from cribboard.errors import UsageError


@cli.command()
@click.option("--crib", is_flag=True, help="Score a crib: a flush needs all five cards.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand.")
@click.option("-v", "--verbose", is_flag=True, help="Say what scored.")
@click.argument("cards", nargs=-1)
def score(crib, as_json, verbose, cards):
    """Score four hand cards and the starter.

    CARDS are C1 C2 C3 C4 STARTER, e.g. 5H 5D 5S JC 5C. With no cards, reads
    one hand per line from stdin and prints one result per line; a bad line
    is reported on stderr and the rest still count."""

    def emit(show):
        if as_json:
            click.echo(json.dumps(calc.show_dict(show)))
        elif verbose:
            click.echo(calc.explain(show))
        else:
            click.echo(show.total)

    if cards:
        try:
            emit(calc.score_text(" ".join(cards), crib))
        except ValueError as e:
            raise UsageError(str(e)) from None
        return
    bad = 0
    for number, line in enumerate(sys.stdin, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            emit(calc.score_text(text, crib))
        except ValueError as e:
            bad += 1
            click.echo("cribboard: error: line %d: %s" % (number, e), err=True)
    if bad:
        sys.exit(USAGE_ERROR)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="A JSON list, one object per card or go.")
@click.argument("cards", nargs=-1, required=True)
def peg(as_json, cards):
    """Points for each card laid in the play.

    CARDS are laid in order, e.g. 5H TD 5S go KC. The count resets after 31 and after the word 'go'."""
    try:
        laid = calc.peg_words(cards)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if as_json:
        click.echo(json.dumps(laid))
        return
    for row in laid:
        if row["card"] == "go":
            click.echo("go        +1  (count back to 0)")
        else:
            what = "  (%s)" % row["what"] if row["what"] else ""
            click.echo("%-4s  %2d  +%d%s" % (row["card"], row["count"], row["points"], what))
