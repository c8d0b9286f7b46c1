# The discard advisor's words and numbers: cribcore.discard computes, this
# module names the model, ranks the throws (equal nets share a rank) and
# shapes them as text, fractions or JSON. No I/O of its own.
from fractions import Fraction
from typing import Any

from cribcore.cards import format_card, parse
from cribcore.discard import KINDS, analyse

CRIBS = ("dealer", "pone", "partner")  # whose crib: yours, an opponent's, your partner's
KIND_NAMES = {"fifteens": "15s", "pairs": "pairs", "runs": "runs", "flush": "flush", "nobs": "nobs"}
NOT_COUNTED = "Pegging and the board position are not counted."


def model(players: int, crib: str) -> str:
    """The model the figures are exact under, in one paragraph."""
    unseen = 46 if players == 2 else 47
    whose = {"dealer": "your crib (net = hand + crib)", "pone": "an opponent's crib (net = hand - crib)",
             "partner": "your partner's crib (net = hand + crib)"}[crib]
    if players == 2:
        others = "the opponent's two (a uniformly random pair of the 46 unseen)"
    elif players == 3:
        others = "the other two players' cards and the deck card (a uniformly random 3 of the 47 unseen)"
    else:
        others = "the other three players' cards (a uniformly random 3 of the 47 unseen)"
    return ("%d players, %s. E[hand]: the four kept cards with each of the %d unseen starters. E[crib]: the "
            "thrown card%s with %s and the starter (uniform over the 44 left). %s"
            % (players, whose, unseen, "s" if players == 2 else "", others, NOT_COUNTED))


def advise(cards: list[int], players: int, crib: str) -> dict[str, Any]:
    """Every throw, ranked, with exact expectations (Fractions) by kind."""
    if crib not in CRIBS:
        raise ValueError("whose crib: %s, not %r" % (", ".join(CRIBS), crib))
    if crib == "partner" and players != 4:
        raise ValueError("only four players have a partner: --partner-deals needs --players 4")
    denominator, throws = analyse(cards, players, crib != "pone")
    rows = []
    rank = 0
    for i, t in enumerate(throws):
        if i == 0 or t.net != throws[i - 1].net:
            rank = i + 1  # equal nets share a rank: 1, 1, 3
        hand = {k: Fraction(v, denominator) for k, v in zip(KINDS, t.hand)}
        crib_parts = {k: Fraction(v, denominator) for k, v in zip(KINDS, t.crib)}
        rows.append({"rank": rank, "throw": t.thrown, "keep": t.kept, "hand": hand, "crib": crib_parts,
                     "hand_total": sum(hand.values(), Fraction(0)), "crib_total": sum(crib_parts.values(), Fraction(0)),
                     "net": Fraction(t.net, denominator)})
    return {"cards": cards, "players": players, "crib": crib, "model": model(players, crib), "throws": rows}


def parse_hand(text: str, players: int) -> list[int]:
    cards = parse(text)
    want = 6 if players == 2 else 5
    if len(cards) != want:
        raise ValueError("%d players are dealt %d cards: give %d, not %d" % (players, want, want, len(cards)))
    return cards


def _number(x: Fraction, exact: bool) -> str:
    return str(x) if exact else "%.2f" % x


def _cards(cards: list[int]) -> str:
    return " ".join(format_card(c) for c in cards)


def text(advice: dict[str, Any], top: int | None = None, exact: bool = False, verbose: bool = False) -> list[str]:
    """The ranked throws as lines of text (aligned, no table library: a
    thousand hands on stdin print in moments)."""
    rows = advice["throws"][:top] if top else advice["throws"]
    out = []
    width = 22 if exact else 8
    keep_width = 15  # four cards, tens included
    out.append("%-4s %-7s %-*s %*s %*s %*s" % ("rank", "throw", keep_width, "keep", width, "E[hand]", width,
                                              "E[crib]", width, "net"))
    for r in rows:
        out.append("%-4d %-7s %-*s %*s %*s %*s" % (
            r["rank"], _cards(r["throw"]), keep_width, _cards(r["keep"]), width, _number(r["hand_total"], exact),
            width, _number(r["crib_total"], exact), width, _number(r["net"], exact)))
        if verbose:
            for name, part in (("hand", r["hand"]), ("crib", r["crib"])):
                out.append("       %s: %s" % (name, ", ".join("%s %s" % (KIND_NAMES[k], _number(part[k], exact))
                                                             for k in KINDS)))
    out.append("model: " + advice["model"])
    return out


def _both(x: Fraction) -> dict[str, Any]:
    return {"exact": str(x), "value": float(x)}


def as_json(advice: dict[str, Any], top: int | None = None) -> dict[str, Any]:
    """For a program: each figure as a reduced fraction ("exact") and a float ("value")."""
    rows = advice["throws"][:top] if top else advice["throws"]
    return {
        "cards": [format_card(c) for c in advice["cards"]], "players": advice["players"], "crib": advice["crib"],
        "model": advice["model"],
        "throws": [{"rank": r["rank"], "throw": [format_card(c) for c in r["throw"]],
                    "keep": [format_card(c) for c in r["keep"]],
                    "hand": dict(total=_both(r["hand_total"]), **{k: _both(r["hand"][k]) for k in KINDS}),
                    "crib": dict(total=_both(r["crib_total"]), **{k: _both(r["crib"][k]) for k in KINDS}),
                    "net": _both(r["net"])} for r in rows],
    }
