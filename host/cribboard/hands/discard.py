# The discard advisor's words and numbers: cribrules.discard computes, this
# module names the model, ranks the throws (equal nets share a rank) and
# shapes them as text, fractions or JSON. No I/O of its own.
import textwrap
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from cribboard.hands.calc import SHOW_WORDS
from cribboard.text.i18n import N_, _, english
from cribrules.cards import format_card, parse
from cribrules.discard import KINDS, analyse

CRIBS = ("dealer", "pone", "partner")  # whose crib: yours, an opponent's, your partner's
KIND_NAMES = dict(zip(KINDS, SHOW_WORDS))  # the show's words, in the same order: 15s, pairs, runs, flush, nobs


def model(players: int, crib: str, _: Callable[[str], str] = english) -> str:
    """The model the figures are exact under, in one paragraph (in English
    unless given a translating _: what a program reads never changes with
    the language)."""
    whose = {
        "dealer": _("your crib (net = hand + crib)"),
        "pone": _("an opponent's crib (net = hand - crib)"),
        "partner": _("your partner's crib (net = hand + crib)"),
    }[crib]
    if players == 2:
        crib_text = _(
            "E[crib]: the thrown cards with the opponent's two (a uniformly random pair of the 46 "
            "unseen) and the starter (uniform over the 44 left)."
        )
    elif players == 3:
        crib_text = _(
            "E[crib]: the thrown card with the other two players' cards and the deck card (a uniformly "
            "random 3 of the 47 unseen) and the starter (uniform over the 44 left)."
        )
    else:
        crib_text = _(
            "E[crib]: the thrown card with the other three players' cards (a uniformly random 3 of the "
            "47 unseen) and the starter (uniform over the 44 left)."
        )
    return " ".join(
        [
            _("%(players)d players, %(whose)s.") % {"players": players, "whose": whose},
            _("E[hand]: the four kept cards with each of the %(unseen)d unseen starters.")
            % {"unseen": 46 if players == 2 else 47},
            crib_text,
            _("Pegging and the board position are not counted."),
        ]
    )


def advise(cards: list[int], players: int, crib: str) -> dict[str, Any]:
    """Every throw, ranked, with exact expectations (Fractions) by kind."""
    if crib not in CRIBS:
        raise ValueError(_("whose crib: %(cribs)s, not %(crib)r") % {"cribs": ", ".join(CRIBS), "crib": crib})
    if crib == "partner" and players != 4:
        raise ValueError(_("only four players have a partner: --partner-deals needs --players 4"))
    denominator, throws = analyse(cards, players, crib != "pone")
    rows = []
    rank = 0
    for i, t in enumerate(throws):
        if i == 0 or t.net != throws[i - 1].net:
            rank = i + 1  # equal nets share a rank: 1, 1, 3
        hand = {k: Fraction(v, denominator) for k, v in zip(KINDS, t.hand)}
        crib_parts = {k: Fraction(v, denominator) for k, v in zip(KINDS, t.crib)}
        rows.append(
            {
                "rank": rank,
                "throw": t.thrown,
                "keep": t.kept,
                "hand": hand,
                "crib": crib_parts,
                "hand_total": sum(hand.values(), Fraction(0)),
                "crib_total": sum(crib_parts.values(), Fraction(0)),
                "net": Fraction(t.net, denominator),
            }
        )
    return {"cards": cards, "players": players, "crib": crib, "model": model(players, crib), "throws": rows}


def parse_hand(text: str, players: int, _: Callable[[str], str] = _) -> list[int]:
    """The cards of a hand (ValueError, in _'s language, if they are not one)."""
    cards = parse(text)
    want = 6 if players == 2 else 5
    if len(cards) != want:
        raise ValueError(
            _("%(players)d players are dealt %(want)d cards: give %(want)d, not %(given)d")
            % {"players": players, "want": want, "given": len(cards)}
        )
    return cards


def _number(x: Fraction, exact: bool) -> str:
    return str(x) if exact else "%.2f" % x


def _cards(cards: list[int]) -> str:
    return " ".join(format_card(c) for c in cards)


def text(advice: dict[str, Any], top: int | None = None, exact: bool = False, verbose: bool = False) -> list[str]:
    """The ranked throws as lines of text no wider than a terminal's 80 columns (aligned, no table library:
    a thousand hands on stdin print in moments)."""
    rows = advice["throws"][:top] if top else advice["throws"]
    heads = [_("rank"), _("throw"), _("keep"), _("E[hand]"), _("E[crib]"), _("net")]
    cells = [
        [str(r["rank"]), _cards(r["throw"]), _cards(r["keep"])]
        + [_number(r[k], exact) for k in ("hand_total", "crib_total", "net")]
        for r in rows
    ]
    widths = [max(len(c[i]) for c in [heads, *cells]) for i in range(len(heads))]

    def line(c: list[str]) -> str:
        left = " ".join(v.ljust(w) for v, w in zip(c[:3], widths[:3]))
        return " ".join([left] + [v.rjust(w) for v, w in zip(c[3:], widths[3:])])

    out = [line(heads)]
    for r, c in zip(rows, cells):
        out.append(line(c))
        if verbose:
            for name, part in ((N_("hand"), r["hand"]), (N_("crib"), r["crib"])):
                said = ", ".join("%s %s" % (_(KIND_NAMES[k]), _number(part[k], exact)) for k in KINDS)
                out.extend(
                    textwrap.wrap("%s: %s" % (_(name), said), 79, initial_indent=" " * 7, subsequent_indent=" " * 9)
                )
    out.extend(textwrap.wrap(_("model: %s") % model(advice["players"], advice["crib"], _), 79, subsequent_indent="  "))
    return out


def _both(x: Fraction) -> dict[str, Any]:
    return {"exact": str(x), "value": float(x)}


def as_json(advice: dict[str, Any], top: int | None = None) -> dict[str, Any]:
    """For a program: each figure as a reduced fraction ("exact") and a float ("value")."""
    rows = advice["throws"][:top] if top else advice["throws"]
    return {
        "cards": [format_card(c) for c in advice["cards"]],
        "players": advice["players"],
        "crib": advice["crib"],
        "model": advice["model"],
        "throws": [
            {
                "rank": r["rank"],
                "throw": [format_card(c) for c in r["throw"]],
                "keep": [format_card(c) for c in r["keep"]],
                "hand": dict(total=_both(r["hand_total"]), **{k: _both(r["hand"][k]) for k in KINDS}),
                "crib": dict(total=_both(r["crib_total"]), **{k: _both(r["crib"][k]) for k in KINDS}),
                "net": _both(r["net"]),
            }
            for r in rows
        ],
    }
