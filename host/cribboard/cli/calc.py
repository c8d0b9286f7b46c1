# Scoring a hand and a pegging play: calculators, no board needed.
import json
import sys
from collections.abc import Callable

import click

from cribboard.cli.base import USAGE_ERROR, cli
from cribboard.cli.output import printable
from cribboard.errors import UsageError
from cribboard.hands import calc
from cribboard.text.error_words import said
from cribboard.text.i18n import _, ngettext
from cribboard.text.quote import LINE, NoLineEnd, clip, input_line, read_line
from cribrules.show import Show


@cli.command()
@click.option("--crib", is_flag=True, help="Score a crib: a flush needs all five cards.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand.")
@click.option("-v", "--verbose", is_flag=True, help="Say what scored.")
@click.argument("cards", nargs=-1)
def score(crib: bool, as_json: bool, verbose: bool, cards: tuple[str, ...]) -> None:
    """Score four hand cards and the starter.

    CARDS are C1 C2 C3 C4 STARTER, e.g. 5H 5D 5S JC 5C. With no cards, reads
    one hand per line from stdin and prints one result per line; a bad line
    is reported on stderr and the rest still count."""

    def emit(show: Show) -> None:
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
            raise UsageError(said(e)) from None
        return
    answer_each_line(lambda text: emit(calc.score_text(text, crib)))


SAID_BAD = 10  # bad lines said one by one; the rest counted
GIVE_UP_BAD = 100  # bad lines in a row that stop the reading: no list of hands looks so


def answer_each_line(answer: Callable[[str], None]) -> None:
    """Answer one input a line from stdin (blank lines and # comments
    skipped); a bad line (answer raised ValueError) is reported with its
    number and the rest still answered; exit status 2 at the end if any was."""
    bad, number, in_a_row = 0, 0, 0
    while True:
        try:
            line = read_line(sys.stdin)
        except NoLineEnd as e:
            raise UsageError(_("line %(number)d: %(problem)s") % {"number": number + 1, "problem": e}) from None
        if not line:
            break
        number += 1
        try:
            text = input_line(line).split("#", 1)[0].strip()
            if not text:
                continue
            answer(text)
        except ValueError as e:
            bad += 1
            in_a_row += 1
            if bad <= SAID_BAD:
                problem = clip(printable(said(e)), LINE)
                click.echo(
                    "cribboard: %s: %s"
                    % (_("error"), _("line %(number)d: %(problem)s") % {"number": number, "problem": problem}),
                    err=True,
                )
            if in_a_row >= GIVE_UP_BAD:  # (random bytes, a binary file: it would go on for ever)
                _say_unsaid(bad)
                raise UsageError(
                    _("%(n)d lines in a row are no input: stopped at line %(number)d")
                    % {"n": in_a_row, "number": number}
                ) from None
            continue
        in_a_row = 0
    _say_unsaid(bad)
    if bad:
        sys.exit(USAGE_ERROR)


def _say_unsaid(bad: int) -> None:
    if bad > SAID_BAD:
        n = bad - SAID_BAD
        click.echo(
            "cribboard: %s: %s"
            % (_("error"), ngettext("%d more bad line not shown", "%d more bad lines not shown", n) % n),
            err=True,
        )


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="A JSON list, one object per card or go.")
@click.argument("cards", nargs=-1, required=True)
def peg(as_json: bool, cards: tuple[str, ...]) -> None:
    """Points for each card laid in the play.

    CARDS are laid in order, e.g. 5H TD 5S go KC. The count resets after 31 and after the word 'go'."""
    try:
        laid = calc.peg_words(cards)
    except ValueError as e:
        raise UsageError(said(e)) from None
    if as_json:
        click.echo(json.dumps(laid))
        return
    for row in laid:
        if row["card"] == "go":
            click.echo(_("go        +1  (count back to 0)"))
        else:
            words = calc.lay_words(row, _)
            what = "  (%s)" % words if words else ""
            click.echo("%-4s  %2d  +%d%s" % (row["card"], row["count"], row["points"], what))


@cli.command()
@click.option("--dealer", is_flag=True, help="You deal: the crib is yours (its points count for you).")
@click.option("--pone", is_flag=True, help="An opponent deals: the crib counts against you.")
@click.option("--partner-deals", is_flag=True, help="Four players: your partner deals (the crib counts for your side).")
@click.option(
    "--players",
    type=click.Choice(["2", "3", "4"]),
    default="2",
    show_default=True,
    help="2 (six cards, throw two), 3 or 4 (five cards, throw one).",
)
@click.option("--top", type=click.IntRange(1), metavar="N", help="Only the N best throws.")
@click.option("--exact", is_flag=True, help="Reduced fractions instead of decimals.")
@click.option("-v", "--verbose", is_flag=True, help="Each expectation by kind: 15s, pairs, runs, flush, nobs.")
@click.option(
    "--json", "as_json", is_flag=True, help="One JSON object per hand, each figure as a fraction and a float."
)
@click.argument("cards", nargs=-1)
def discard(
    dealer: bool,
    pone: bool,
    partner_deals: bool,
    players: str,
    top: int | None,
    exact: bool,
    verbose: bool,
    as_json: bool,
    cards: tuple[str, ...],
) -> None:
    """Which cards to throw to the crib: every throw ranked by expected points.

    CARDS are your six cards (two players) or five (three or four), as for
    `cribboard score`, e.g. 5H 5S JD 4C 6H KH. Say whose crib it is: a
    throw that is right for your own crib is often wrong for theirs.

    Exact under a stated model: E[hand] over every unseen starter; E[crib]
    over every way the rest of the crib (the opponent's two cards, or with 3
    and 4 players the other three) and the starter can come from the unseen
    cards, all equally likely. Pegging and the board position are not
    counted. With no CARDS, reads one hand a line from stdin (blank lines
    and # comments skipped; a bad line is reported and the rest answered)."""
    from cribboard.hands import discard as dc

    given = [name for name, flag in (("dealer", dealer), ("pone", pone), ("partner", partner_deals)) if flag]
    if len(given) != 1:
        flags = " ".join("--" + w.replace("partner", "partner-deals") for w in given)
        raise UsageError(
            _("say whose crib it is, once: --dealer (yours), --pone (an opponent's) or --partner-deals")
            + (_(", not %s") % flags if given else "")
        )
    crib = given[0]
    n = int(players)

    def answer(text: str) -> None:
        advice = dc.advise(dc.parse_hand(text, n), n, crib)
        if as_json:
            click.echo(json.dumps(dc.as_json(advice, top)))
        else:
            click.echo("\n".join(dc.text(advice, top, exact, verbose)))

    if cards:
        try:
            answer(" ".join(cards))
        except ValueError as e:
            raise UsageError(said(e)) from None
        return
    told: list[str] = []  # hands answered so far: a blank line between their tables

    def headed(text: str) -> None:
        if not as_json:
            click.echo(("\n" if told else "") + _("hand: %s") % text)
        told.append(text)
        answer(text)

    answer_each_line(headed)
