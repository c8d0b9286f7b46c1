# Hand and pegging calculators: text in, results out, no I/O of their own.

from cribcore.cards import format_card, parse, parse_card, value
from cribcore.pegging import MAX_COUNT, score_lay
from cribcore.show import describe, score


def score_text(text, crib=False):
    """Score 'C1 C2 C3 C4 STARTER'; ValueError naming the problem."""
    cards = parse(text)
    if len(cards) != 5:
        raise ValueError("give 4 hand cards and the starter (5 cards), not %d" % len(cards))
    return score(cards[:4], cards[4], crib)


def show_dict(show):
    return {name: getattr(show, name) for name in ("total", "fifteens", "pairs", "runs", "flush", "nobs")}


def explain(show):
    return describe(show)


def peg_words(words):
    """Lay cards in order; 'go' resets the count, so does reaching 31.

    Returns one dict per word: the card (or 'go'), the count after it, the
    points and what made them."""
    cards = [w for w in words if w.lower() != "go"]
    parse(" ".join(cards))  # refuses unknown and duplicate cards up front
    out = []
    series = []
    count = 0
    for word in words:
        if word.lower() == "go":
            if not series:
                raise ValueError("'go' with no card laid since the count was 0")
            out.append({"card": "go", "count": 0, "points": 1, "what": "go: 1 for the last card"})
            series, count = [], 0
            continue
        c = parse_card(word)
        if count + value(c) > MAX_COUNT:
            raise ValueError("%s would take the count to %d: say go first" % (format_card(c), count + value(c)))
        series.append(c)
        count += value(c)
        lay = score_lay(series)
        what = []
        if lay.fifteen:
            what.append("fifteen 2")
        if lay.thirty_one:
            what.append("thirty-one 2")
        if lay.pairs:
            what.append({2: "pair 2", 6: "pair royal 6", 12: "double pair royal 12"}[lay.pairs])
        if lay.run:
            what.append("run of %d" % lay.run)
        out.append({"card": format_card(c), "count": count, "points": lay.total, "what": ", ".join(what),
                    "fifteen": lay.fifteen, "thirty_one": lay.thirty_one, "pairs": lay.pairs, "run": lay.run})
        if count == MAX_COUNT:
            series, count = [], 0
    return out
