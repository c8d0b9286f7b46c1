# Hand and pegging calculators: text in, results out, no I/O of their own.

from collections.abc import Callable, Sequence
from typing import Any

from cribboard.text.i18n import N_, _, english
from cribrules.cards import format_card, parse, parse_card, value
from cribrules.pegging import MAX_COUNT, score_lay
from cribrules.show import Show, describe, score

# The kinds of points in the show, as cribrules.show.describe orders them, then its word for none.
SHOW_WORDS = (N_("15s"), N_("pairs"), N_("runs"), N_("flush"), N_("nobs"), N_("nothing"))
PAIRS = {2: N_("pair 2"), 6: N_("pair royal 6"), 12: N_("double pair royal 12")}


def score_text(text: str, crib: bool = False) -> Show:
    """Score 'C1 C2 C3 C4 STARTER'; ValueError naming the problem."""
    cards = parse(text)
    if len(cards) != 5:
        raise ValueError(_("give 4 hand cards and the starter (5 cards), not %d") % len(cards))
    return score(cards[:4], cards[4], crib)


def show_dict(show: Show) -> dict[str, int]:
    return {name: getattr(show, name) for name in ("total", "fifteens", "pairs", "runs", "flush", "nobs")}


def explain(show: Show) -> str:
    """What scored, in the reader's language."""
    return describe(show, tuple(_(w) for w in SHOW_WORDS))


def lay_words(row: dict[str, Any], say: Callable[[str], str] = english) -> str:
    """What made a laid card's points (a row of peg_words), in English or,
    given say=_, the reader's language."""
    if row["card"] == "go":
        return say(N_("go: 1 for the last card"))
    what = []
    if row["fifteen"]:
        what.append(say(N_("fifteen 2")))
    if row["thirty_one"]:
        what.append(say(N_("thirty-one 2")))
    if row["pairs"]:
        what.append(say(PAIRS[row["pairs"]]))
    if row["run"]:
        what.append(say(N_("run of %d")) % row["run"])
    return ", ".join(what)


def peg_words(words: Sequence[str]) -> list[dict[str, Any]]:
    """Lay cards in order; 'go' resets the count, so does reaching 31.

    Returns one dict per word: the card (or 'go'), the count after it, the
    points and what made them."""
    cards = [w for w in words if w.lower() != "go"]
    parse(" ".join(cards))  # refuses unknown and duplicate cards up front
    out = []
    series: list[int] = []
    count = 0
    for word in words:
        if word.lower() == "go":
            if not series:
                raise ValueError(_("'go' with no card laid since the count was 0"))
            out.append({"card": "go", "count": 0, "points": 1, "what": lay_words({"card": "go"})})
            series, count = [], 0
            continue
        c = parse_card(word)
        if count + value(c) > MAX_COUNT:
            raise ValueError(
                _("%(card)s would take the count to %(count)d: say go first")
                % {"card": format_card(c), "count": count + value(c)}
            )
        series.append(c)
        count += value(c)
        lay = score_lay(series)
        row = {
            "card": format_card(c),
            "count": count,
            "points": lay.total,
            "what": "",
            "fifteen": lay.fifteen,
            "thirty_one": lay.thirty_one,
            "pairs": lay.pairs,
            "run": lay.run,
        }
        row["what"] = lay_words(row)  # English: what a program reads never changes with the language
        out.append(row)
        if count == MAX_COUNT:
            series, count = [], 0
    return out
