# The piquet sheet in the reader's words: what each line changed, the
# running totals, the result with the rubicon's arithmetic, the prompt and
# the sheet printed at the end (cribboard.sheets.piquet holds the rules).
from cribboard.sheets import piquet_deal as pd
from cribboard.sheets.change import Change, Routine
from cribboard.sheets.piquet import Sheet
from cribboard.text.i18n import _, ngettext
from cribcore.partie import DEALS, EXTRA_DEALS, RUBICON


def scoring_lines(sheet: Sheet, k: int) -> list[str]:
    """How deal k was scored, if it was from its cards: `piquet deal`'s lines."""
    result = sheet.scored[k]
    return [] if result is None else ["  " + line for line in pd.lines(result)]


def describe(sheet: Sheet, k: int) -> str:
    a, b = sheet.deals()[k]
    dealer = sheet.dealer_of(k)
    return _("deal %(number)d (%(dealer)s dealt, %(elder)s elder): %(first)s +%(a)d, %(second)s +%(b)d") % {
        "number": k + 1,
        "dealer": sheet.names[dealer],
        "elder": sheet.names[1 - dealer],
        "first": sheet.names[0],
        "a": a,
        "second": sheet.names[1],
        "b": b,
    }


def told(sheet: Sheet, change: Change) -> list[str]:
    """What to tell the table after a line changed the sheet."""
    k = change.deal
    if change.what == "removed":
        return [_("removed %s") % describe(change.was, k)] + totals_lines(sheet)
    if change.what == "fixed":
        return (
            scoring_lines(sheet, k)
            + [_("fixed: %(deal)s (was: %(was)s)") % {"deal": describe(sheet, k), "was": describe(change.was, k)}]
            + totals_lines(sheet)
        )
    return scoring_lines(sheet, k) + [Routine(describe(sheet, k))] + totals_lines(sheet)


def totals_lines(sheet: Sheet) -> list[str]:
    """The running totals, and the partie's result once the deals decide it."""
    g, names = sheet.game, sheet.names
    t = g.scores()
    played = len(sheet.deals())
    out: list[str] = [
        Routine(
            "  "
            + _("totals: %(first)s %(a)d, %(second)s %(b)d")
            % {"first": names[0], "a": t[0], "second": names[1], "b": t[1]}
        )
    ]
    if g.over():
        out.append(Routine("  " + result_text(sheet)))  # the sheet printed at the end says it too
    elif played == DEALS and t[0] == t[1]:
        out.append(
            Routine(
                "  "
                + _("tied at %(score)d after %(deals)d deals: %(more)d more deals decide it")
                % {"score": t[0], "deals": DEALS, "more": EXTRA_DEALS}
            )
        )
    return out


def result_text(sheet: Sheet) -> str:
    """The finished partie in words, with the rubicon's arithmetic."""
    g, names = sheet.game, sheet.names
    t = g.scores()
    r = g.rubicon()
    if r is None:
        return _("the partie is drawn: still tied at %(score)d after %(deals)d deals (no points)") % {
            "score": t[0],
            "deals": DEALS + EXTRA_DEALS,
        }
    w, points = r
    lost = t[1 - w]
    if lost < RUBICON:
        return _(
            "%(winner)s wins; %(loser)s is rubiconed (%(lost)d, under %(rubicon)d): %(rubicon)d + %(won)d + "
            "%(lost)d = %(points)d points"
        ) % {"winner": names[w], "loser": names[1 - w], "lost": lost, "rubicon": RUBICON, "won": t[w], "points": points}
    return _("%(winner)s wins, %(won)d to %(lost)d: %(rubicon)d + %(difference)d = %(points)d points") % {
        "winner": names[w],
        "won": t[w],
        "lost": lost,
        "rubicon": RUBICON,
        "difference": t[w] - lost,
        "points": points,
    }


def prompt(sheet: Sheet) -> str:
    g = sheet.game
    if g.over():
        return _("the partie is over (undo, fix N A B, or quit)")
    dealer = g.dealer()
    return _("deal %(number)d: %(dealer)s deals, %(elder)s is elder; %(first)s's points and %(second)s's") % {
        "number": g.deal_number(),
        "dealer": sheet.names[dealer],
        "elder": sheet.names[1 - dealer],
        "first": sheet.names[0],
        "second": sheet.names[1],
    }


def rows(sheet: Sheet) -> list[str]:
    """The score sheet: each deal, the running totals, the result."""
    names = sheet.names
    width = max(12, max(len(n) for n in names) + 2)
    head = "%-3s %-12s" % ("#", _("dealer")[:12]) + "".join("%*s" % (width, n) for n in names)
    out = [head, "-" * len(head)]
    run = [0, 0]
    for k, (a, b) in enumerate(sheet.deals()):
        run[0] += a
        run[1] += b
        out.append(
            "%-3d %-12s" % (k + 1, names[sheet.dealer_of(k)][:12])
            + "".join("%*s" % (width, "%d (%d)" % (d, r)) for d, r in ((a, run[0]), (b, run[1])))
        )
        out.extend("    " + line for line in scoring_lines(sheet, k))
    out.append(_("(a deal's points, then the running total)"))
    out.append(
        result_text(sheet)
        if sheet.game.over()
        else ngettext(
            "unfinished: %(played)d deal played of %(deals)d (%(tie)d on a tie)",
            "unfinished: %(played)d deals played of %(deals)d (%(tie)d on a tie)",
            len(sheet.deals()),
        )
        % {"played": len(sheet.deals()), "deals": DEALS, "tie": DEALS + EXTRA_DEALS}
    )
    return out
