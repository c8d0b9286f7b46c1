# One piquet deal in the table's words: the declarations in the order they
# are made (point, sequence, set), each "good", "not good" or "equal" and
# why, then carte blanche, repique and pique, the lead, the tricks, the
# cards or capot, and each player's total. The scoring is cribcore.piquet's.
from typing import Any

from cribcore.cards import parse
from cribcore.piquet import ELDER, ORDER, YOUNGER, point_of, score_deal, sequences_of, sets_of

WHO = ("elder", "younger")
_RANK = {6: "seven", 7: "eight", 8: "nine", 9: "ten", 10: "jack", 11: "queen", 12: "king", 0: "ace"}
_SEQUENCE = {3: "tierce", 4: "quart", 5: "quint", 6: "sixieme", 7: "septieme", 8: "huitieme"}


def hand(text: str, who: str) -> list[int]:
    """12 cards from text (the syntax of `cribboard score`); ValueError names whose."""
    try:
        return parse(text)
    except ValueError as e:
        raise ValueError("%s's cards: %s" % (who, e)) from None


def tricks(text: str) -> list[int]:
    """The 12 tricks' winners from letters E and Y (or 0 and 1), spaces allowed."""
    letters = text.replace(" ", "").replace(",", "").upper()
    if len(letters) != 12 or any(c not in "EY01" for c in letters):
        raise ValueError("the tricks are 12 letters, E for each trick elder won and Y for younger's "
                         "(e.g. EEYEEYEEEYEE), not %r" % text)
    return [ELDER if c in "E0" else YOUNGER for c in letters]


def _verdict(has: list[bool], scored: list[int]) -> tuple[str, str]:
    """Elder declares, younger answers: "good" (elder's is better), "not good"
    (younger's is), "equal" (nobody scores), or "none" (neither has one)."""
    if not any(has):
        return "none", "nobody has one"
    if scored[ELDER]:
        return "good", "elder scores %d" % scored[ELDER]
    if scored[YOUNGER]:
        return "not good", "younger scores %d" % scored[YOUNGER]
    return "equal", "nobody scores"


def deal(elder: list[int], younger: list[int], winners: list[int],
         dealt: tuple[list[int], list[int]] | None = None) -> dict[str, Any]:
    """The deal scored and explained (a dict for --json); ValueError if it cannot be."""
    d = score_deal(elder, younger, winners, dealt)
    hands = (elder, younger)
    points = [point_of(h) for h in hands]
    seqs = [sorted(sequences_of(h), reverse=True) for h in hands]
    sets = [sorted(sets_of(h), reverse=True) for h in hands]

    def point_words(p: int) -> str:
        n, pips = points[p]
        return "%s %d (%d)" % (WHO[p], n, pips)

    def seq_words(p: int) -> str:
        if not seqs[p]:
            return "%s none" % WHO[p]
        n, high = seqs[p][0]
        return "%s %s to the %s" % (WHO[p], _SEQUENCE[min(n, 8)], _RANK[ORDER[high]])

    def set_words(p: int) -> str:
        if not sets[p]:
            return "%s none" % WHO[p]
        n, rank = sets[p][0]
        return "%s %s of %ss" % (WHO[p], "quatorze" if n == 4 else "trio", _RANK[ORDER[rank]])

    declarations = []
    for name, scored, words, has in (
            ("point", d.point, point_words, [points[p][0] > 0 for p in (ELDER, YOUNGER)]),
            ("sequence", d.sequences, seq_words, [bool(seqs[p]) for p in (ELDER, YOUNGER)]),
            ("set", d.sets, set_words, [bool(sets[p]) for p in (ELDER, YOUNGER)])):
        verdict, why = _verdict(has, scored)
        declarations.append({"what": name, "elder": words(ELDER), "younger": words(YOUNGER),
                             "verdict": verdict, "why": why, "scores": list(scored)})
    return {
        "declarations": declarations, "blanche": list(d.blanche), "repique": list(d.repique),
        "pique": list(d.pique), "lead": list(d.lead), "tricks": list(d.tricks),
        "tricks_won": [winners.count(ELDER), winners.count(YOUNGER)], "cards": list(d.cards),
        "scores": list(d.scores),
    }


def lines(result: dict[str, Any]) -> list[str]:
    """The deal as a table would say it, line by line."""
    out = []
    for dec in result["declarations"]:
        out.append("%-8s %s; %s: %s" % (dec["what"], ", ".join((dec["elder"], dec["younger"])),
                                        dec["verdict"], dec["why"]))
    for key, name in (("blanche", "carte blanche"), ("repique", "repique"), ("pique", "pique")):
        for p in (ELDER, YOUNGER):
            if result[key][p]:
                out.append("%-8s %s: %d" % (name if key != "blanche" else "blanche", WHO[p], result[key][p]))
    won = result["tricks_won"]
    out.append("lead     elder: 1")
    out.append("tricks   elder %d (%d), younger %d (%d)" % (won[ELDER], result["tricks"][ELDER], won[YOUNGER],
                                                          result["tricks"][YOUNGER]))
    for p in (ELDER, YOUNGER):
        if result["cards"][p]:
            out.append("%-8s %s: %d" % ("capot" if won[p] == 12 else "cards", WHO[p], result["cards"][p]))
    if not any(result["cards"]):
        out.append("cards    six tricks each: nobody")
    out.append("total    elder %d, younger %d" % tuple(result["scores"]))
    return out
