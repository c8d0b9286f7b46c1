# One piquet deal in the table's words: the declarations in the order they
# are made (point, sequence, set), each "good", "not good" or "equal" and
# why, then carte blanche, repique and pique, the lead, the tricks, the
# cards or capot, and each player's total. The scoring is cribrules.piquet's.
# deal() is data (the same in every language: declarations as counts and
# ranks, verdicts as codes); lines() says it in the reader's language. A
# deal written on one line (the sheet's) is kept as `Kept`: cards as codes
# and tricks as E and Y, the same in every language.
from typing import Any

from cribboard.text.error_words import said
from cribboard.text.game_words import WHO_WORDS
from cribboard.text.i18n import N_, _
from cribrules.cards import RANKS, format_cards, parse
from cribrules.piquet import ELDER, ORDER, YOUNGER, point_of, score_deal, sequences_of, sets_of

_RANK = {
    6: N_("seven"),
    7: N_("eight"),
    8: N_("nine"),
    9: N_("ten"),
    10: N_("jack"),
    11: N_("queen"),
    12: N_("king"),
    0: N_("ace"),
}
_RANKS = {9: N_("tens"), 10: N_("jacks"), 11: N_("queens"), 12: N_("kings"), 0: N_("aces")}  # a set is 10 or higher
_SEQUENCE = {3: N_("tierce"), 4: N_("quart"), 5: N_("quint"), 6: N_("sixieme"), 7: N_("septieme"), 8: N_("huitieme")}
_SET = {3: N_("trio"), 4: N_("quatorze")}
_LABEL = {
    "point": N_("point"),
    "sequence": N_("sequence"),
    "set": N_("set"),
    "blanche": N_("blanche"),
    "repique": N_("repique"),
    "pique": N_("pique"),
    "lead": N_("lead"),
    "tricks": N_("tricks"),
    "capot": N_("capot"),
    "cards": N_("cards"),
    "total": N_("total"),
}
_VERDICT = {"good": N_("good"), "not good": N_("not good"), "equal": N_("equal"), "none": N_("none")}


def hand(text: str, who: str) -> list[int]:
    """12 cards from text (the syntax of `cribboard score`); ValueError names
    whose (who: "elder" or "younger", with " dealt" for the cards as dealt)."""
    try:
        return parse(text)
    except ValueError as e:
        whose = {
            "elder": _("elder's cards: %s"),
            "younger": _("younger's cards: %s"),
            "elder dealt": _("elder's cards as dealt: %s"),
            "younger dealt": _("younger's cards as dealt: %s"),
        }
        raise ValueError(whose[who] % said(e)) from None


def tricks(text: str) -> list[int]:
    """The 12 tricks' winners from letters E and Y (or 0 and 1), spaces allowed."""
    letters = text.replace(" ", "").replace(",", "").upper()
    if len(letters) != 12 or any(c not in "EY01" for c in letters):
        raise ValueError(
            _("the tricks are 12 letters, E for each trick elder won and Y for younger's (e.g. EEYEEYEEEYEE), not %r")
            % text
        )
    return [ELDER if c in "E0" else YOUNGER for c in letters]


# A deal from the cards as kept: "elder", "younger" (the cards held, as
# codes), "tricks" (12 letters E and Y), and "elder_dealt", "younger_dealt"
# where the table gave the cards as dealt.
Kept = dict[str, str]
_PARTS = ("elder", "younger", "tricks", "elder_dealt", "younger_dealt")
_HANDS = {"elder": "elder", "younger": "younger", "elder_dealt": "elder dealt", "younger_dealt": "younger dealt"}


def from_line(text: str) -> Kept:
    """A deal written on one line: elder's cards / younger's / the tricks
    [/ elder's as dealt [/ younger's as dealt]], '-' for a hand not given;
    ValueError if a part cannot be read. Whether the cards make a legal deal
    is score_kept's to say (the sheet scores what it enters)."""
    parts = [p.strip() for p in text.split("/")]
    if not 3 <= len(parts) <= 5:
        raise ValueError(
            _(
                "a deal from the cards is elder's 12 cards / younger's 12 / who won each trick (E or Y)"
                ", then, if the exchange matters, / elder's cards as dealt / younger's ('-' for one "
                "not given), not %r"
            )
            % text
        )
    kept: Kept = {}
    for key, part in zip(_PARTS, parts):
        if part != "-" or key in ("elder", "younger", "tricks"):
            kept[key] = part
    canonical: Kept = {}
    for key, value in kept.items():
        if key == "tricks":
            canonical[key] = "".join("E" if w == ELDER else "Y" for w in tricks(value))
        else:
            canonical[key] = format_cards(hand(value, _HANDS[key]))
    return canonical


def score_kept(kept: Kept) -> dict[str, Any]:
    """A kept deal scored by deal(); ValueError if it cannot be (or is not a kept deal)."""
    if (
        not isinstance(kept, dict)
        or not all(isinstance(kept.get(k, ""), str) for k in _PARTS)
        or not {"elder", "younger", "tricks"} <= set(kept) <= set(_PARTS)
    ):
        raise ValueError(_("a deal from the cards needs elder's cards, younger's and the tricks"))
    dealt = None
    if "elder_dealt" in kept or "younger_dealt" in kept:
        e, y = (hand(kept[k], _HANDS[k]) if k in kept else None for k in ("elder_dealt", "younger_dealt"))
        dealt = (e, y)
    try:
        return deal(hand(kept["elder"], "elder"), hand(kept["younger"], "younger"), tricks(kept["tricks"]), dealt)
    except ValueError as e:
        raise ValueError(said(e)) from None


def _verdict(has: list[bool], scored: list[int]) -> str:
    """Elder declares, younger answers: "good" (elder's is better), "not good"
    (younger's is), "equal" (nobody scores), or "none" (neither has one)."""
    if not any(has):
        return "none"
    if scored[ELDER]:
        return "good"
    if scored[YOUNGER]:
        return "not good"
    return "equal"


def deal(
    elder: list[int],
    younger: list[int],
    winners: list[int],
    dealt: tuple[list[int] | None, list[int] | None] | None = None,
) -> dict[str, Any]:
    """The deal scored (a dict for --json); ValueError if it cannot be.
    Each declaration holds each player's best: a point's cards and pips, a
    sequence's length and top card, a set's size and rank (a rank as in a
    card: A K Q J T 9 8 7), or null for none."""
    d = score_deal(elder, younger, winners, dealt)
    hands = (elder, younger)
    held: dict[str, list[dict[str, Any] | None]] = {"point": [], "sequence": [], "set": []}
    for h in hands:
        n, pips = point_of(h)
        held["point"].append({"cards": n, "pips": pips} if n else None)
        seqs = sorted(sequences_of(h), reverse=True)
        held["sequence"].append({"length": seqs[0][0], "high": RANKS[ORDER[seqs[0][1]]]} if seqs else None)
        sets = sorted(sets_of(h), reverse=True)
        held["set"].append({"size": sets[0][0], "rank": RANKS[ORDER[sets[0][1]]]} if sets else None)
    declarations = []
    for name, scored in (("point", d.point), ("sequence", d.sequences), ("set", d.sets)):
        has = [held[name][p] is not None for p in (ELDER, YOUNGER)]
        declarations.append(
            {
                "what": name,
                "elder": held[name][ELDER],
                "younger": held[name][YOUNGER],
                "verdict": _verdict(has, scored),
                "scores": list(scored),
            }
        )
    return {
        "declarations": declarations,
        "blanche": list(d.blanche),
        "repique": list(d.repique),
        "pique": list(d.pique),
        "lead": list(d.lead),
        "tricks": list(d.tricks),
        "tricks_won": [winners.count(ELDER), winners.count(YOUNGER)],
        "cards": list(d.cards),
        "scores": list(d.scores),
    }


def _held(what: str, p: int, best: dict[str, Any] | None) -> str:
    """A player's best declaration as the table says it: "elder quint to the ace"."""
    who = _(WHO_WORDS[p])
    if best is None:
        return _("%(who)s none") % {"who": who}
    if what == "point":
        return "%s %d (%d)" % (who, best["cards"], best["pips"])
    if what == "sequence":
        return _("%(who)s %(sequence)s to the %(rank)s") % {
            "who": who,
            "sequence": _(_SEQUENCE[min(best["length"], 8)]),
            "rank": _(_RANK[RANKS.index(best["high"])]),
        }
    return _("%(who)s %(set)s of %(ranks)s") % {
        "who": who,
        "set": _(_SET[best["size"]]),
        "ranks": _(_RANKS[RANKS.index(best["rank"])]),
    }


def _why(verdict: str, scores: list[int]) -> str:
    if verdict == "none":
        return _("nobody has one")
    if verdict == "equal":
        return _("nobody scores")
    p = ELDER if verdict == "good" else YOUNGER
    return _("%(who)s scores %(points)d") % {"who": _(WHO_WORDS[p]), "points": scores[p]}


def lines(result: dict[str, Any]) -> list[str]:
    """The deal as a table would say it, line by line, in the reader's language."""
    who = [_(w) for w in WHO_WORDS]
    said: list[tuple[str, str]] = []  # (what, the words): aligned once all are known
    for dec in result["declarations"]:
        said.append(
            (
                dec["what"],
                "%s, %s; %s: %s"
                % (
                    _held(dec["what"], ELDER, dec["elder"]),
                    _held(dec["what"], YOUNGER, dec["younger"]),
                    _(_VERDICT[dec["verdict"]]),
                    _why(dec["verdict"], dec["scores"]),
                ),
            )
        )
    for key in ("blanche", "repique", "pique"):
        for p in (ELDER, YOUNGER):
            if result[key][p]:
                said.append((key, "%s: %d" % (who[p], result[key][p])))
    won = result["tricks_won"]
    said.append(("lead", "%s: 1" % who[ELDER]))
    said.append(
        (
            "tricks",
            "%s %d (%d), %s %d (%d)"
            % (who[ELDER], won[ELDER], result["tricks"][ELDER], who[YOUNGER], won[YOUNGER], result["tricks"][YOUNGER]),
        )
    )
    for p in (ELDER, YOUNGER):
        if result["cards"][p]:
            said.append(("capot" if won[p] == 12 else "cards", "%s: %d" % (who[p], result["cards"][p])))
    if not any(result["cards"]):
        said.append(("cards", _("six tricks each: nobody")))
    said.append(
        ("total", "%s %d, %s %d" % (who[ELDER], result["scores"][ELDER], who[YOUNGER], result["scores"][YOUNGER]))
    )
    width = max(8, max(len(_(_LABEL[key])) for key, _text in said))
    return ["%-*s %s" % (width, _(_LABEL[key]), text) for key, text in said]
