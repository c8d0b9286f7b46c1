# The barbu sheet in the reader's words: what each line changed, the
# running totals and checks, the doubles owed to the dealer, and the sheet
# printed at the end (cribboard.sheets.barbu holds the rules).
from collections.abc import Sequence

from cribboard.sheets.barbu import contract_name, deal_line, pair_totals
from cribboard.sheets.change import Change, Routine
from cribboard.text.i18n import _, ngettext
from cribrules import barbu


def describe(rubber: barbu.Rubber, k: int) -> str:
    """Deal k (0-based) in words: who dealt what, and the doubles."""
    dealer, contract, _result, doubles, _scores = rubber.deals[k]
    bets = ", ".join(
        (_("%(a)s doubled %(b)s (redoubled)") if r else _("%(a)s doubled %(b)s"))
        % {"a": rubber.name(a), "b": rubber.name(b)}
        for a, b, r in doubles
    )
    return _("deal %(number)d, %(contract)s by %(dealer)s") % {
        "number": k + 1,
        "contract": contract_name(contract),
        "dealer": rubber.name(dealer),
    } + ("; " + bets if bets else "")


def told(rubber: barbu.Rubber, change: Change) -> list[str]:
    """What to tell the table after a line changed the rubber."""
    if change.what == "removed":
        _dealer, c, r, d, _scores = change.was.deals[change.deal]
        return [
            _("removed %(deal)s (it read: %(line)s)")
            % {"deal": describe(change.was, change.deal), "line": deal_line(c, r, d)}
        ] + duty_lines(rubber)
    if change.what == "fixed":
        return (
            [
                _("fixed: %(deal)s (was: %(was)s)")
                % {"deal": describe(rubber, change.deal), "was": describe(change.was, change.deal)}
            ]
            + totals_lines(rubber)
            + duty_lines(rubber)
        )
    return deal_lines(rubber)


def deal_lines(rubber: barbu.Rubber) -> list[str]:
    """After a deal: its scores with the doubles settled, the running totals,
    the check, and where the dealer's doubles stand."""
    k = len(rubber.deals) - 1
    _dealer, contract, result, doubles, scores = rubber.deals[k]
    raw = barbu.contract_scores(contract, result)
    out: list[str] = [Routine(describe(rubber, k))]
    out.append(
        Routine(
            "  "
            + _("scores: %s") % ", ".join("%s %+d" % (rubber.name(p), scores[p]) for p in range(barbu.PLAYERS))
            + ("  " + _("(before the doubles: %s)") % " ".join("%+d" % v for v in raw) if doubles else "")
        )
    )
    return out + totals_lines(rubber) + duty_lines(rubber)


def totals_lines(rubber: barbu.Rubber) -> list[str]:
    """The round's and the rubber's running totals, and the zero-sum check."""
    if not rubber.deals:
        return []
    dealer = rubber.deals[-1][0]
    played = [d[1] for d in rubber.deals if d[0] == dealer]
    rnd = rubber.round_totals(dealer)
    whole = rubber.totals()
    out: list[str] = [
        Routine(
            "  "
            + _("round of %(dealer)s: %(totals)s")
            % {
                "dealer": rubber.name(dealer),
                "totals": ", ".join("%s %d" % (rubber.name(p), rnd[p]) for p in range(barbu.PLAYERS)),
            }
        ),
        Routine(
            "  " + _("rubber:  %s") % ", ".join("%s %d" % (rubber.name(p), whole[p]) for p in range(barbu.PLAYERS))
        ),
    ]
    want = sum(barbu.TOTALS[c] for c in played)
    if sum(rnd) == want:
        out.append(
            Routine(
                "  "
                + ngettext(
                    "check: the round adds up to %(sum)d, as its %(n)d contract does",
                    "check: the round adds up to %(sum)d, as its %(n)d contracts do",
                    len(played),
                )
                % {"sum": sum(rnd), "n": len(played)}
                + (_("; the round is done: 0") if len(played) == len(barbu.CONTRACTS) else "")
            )
        )
    else:
        out.append(
            "  "
            + _("CHECK FAILED: the round adds up to %(sum)d; its contracts make %(want)d")
            % {"sum": sum(rnd), "want": want}
        )
    for problem in rubber.check():
        out.append("  " + _("CHECK FAILED: %s") % problem)
    return out


def duty_lines(rubber: barbu.Rubber) -> list[str]:
    """How many times each player has doubled the current dealer (the seed's
    asterisks), and a warning by name when the rule comes to its last chance
    or can no longer be met. A round that just ended says who fell short."""
    out = []
    k = len(rubber.deals)
    n = len(barbu.CONTRACTS)
    if k and k % n == 0:
        for dealer, p, times in rubber.shortfalls():
            if dealer == rubber.deals[k - 1][0]:
                out.append(
                    "  "
                    + ngettext(
                        "marked: %(player)s doubled %(dealer)s %(times)d time in the round, not %(must)d",
                        "marked: %(player)s doubled %(dealer)s %(times)d times in the round, not %(must)d",
                        times,
                    )
                    % {
                        "player": rubber.name(p),
                        "dealer": rubber.name(dealer),
                        "times": times,
                        "must": barbu.MUST_DOUBLE_DEALER,
                    }
                )
    if rubber.over():
        return out
    dealer = rubber.dealer()
    count = rubber.doubled_dealer(k - 1) if k % n else [0] * barbu.PLAYERS
    out.append(
        Routine(
            "  "
            + _("%(dealer)s deals next; doubled %(dealer)s so far: %(counts)s")
            % {
                "dealer": rubber.name(dealer),
                "counts": ", ".join(
                    "%s %s" % (rubber.name(p), "*" * count[p] or "-") for p in range(barbu.PLAYERS) if p != dealer
                ),
            }
        )
    )
    for p, _times, needed, left in rubber.duty():
        if needed == left:
            says = (
                _("warning: %(player)s must double %(dealer)s in the last deal of the round")
                if left == 1
                else _(
                    "warning: %(player)s must double %(dealer)s in every one of the %(left)d deals left in the round"
                )
            )
            out.append("  " + says % {"player": rubber.name(p), "dealer": rubber.name(dealer), "left": left})
        elif needed > left:
            out.append(
                "  "
                + ngettext(
                    "warning: %(player)s can no longer double %(dealer)s twice in this round (%(left)d deal left, "
                    "%(needed)d to go): the sheet will mark it",
                    "warning: %(player)s can no longer double %(dealer)s twice in this round (%(left)d deals left, "
                    "%(needed)d to go): the sheet will mark it",
                    left,
                )
                % {"player": rubber.name(p), "dealer": rubber.name(dealer), "left": left, "needed": needed}
            )
    return out


def sheet_rows(rubber: barbu.Rubber, names: list[str], partners: Sequence[Sequence[int]] | None = None) -> list[str]:
    """Lines of the score sheet: each deal, each dealer's round total, running
    totals (and the pairs' pooled totals in a partnership game)."""
    out = []
    width = max(8, max(len(n) for n in names) + 1)
    head = "%-3s %-10s %-11s" % ("#", _("dealer")[:10], _("contract")[:11]) + "".join("%*s" % (width, n) for n in names)
    out.append(head)
    out.append("-" * len(head))
    running = [0] * barbu.PLAYERS
    for i, (dealer, contract, _result, doubles, scores) in enumerate(rubber.deals):
        marks = ["*" if [p, dealer] in [[d[0], d[1]] for d in doubles] else "" for p in range(barbu.PLAYERS)]
        cells = "".join("%*s" % (width, "%d%s" % (scores[p], marks[p])) for p in range(barbu.PLAYERS))
        out.append("%-3d %-10s %-11s%s" % (i + 1, names[dealer][:10], contract_name(contract)[:11], cells))
        for p in range(barbu.PLAYERS):
            running[p] += scores[p]
        if (i + 1) % len(barbu.CONTRACTS) == 0 or i + 1 == len(rubber.deals):
            out.append(
                "%-26s" % ("  " + _("round of %s") % names[dealer][:10])
                + "".join("%*d" % (width, t) for t in rubber.round_totals(dealer))
            )
            out.append("%-26s" % ("  " + _("running total")) + "".join("%*d" % (width, t) for t in running))
            if partners:
                out.append(
                    "  "
                    + _("pairs: %s")
                    % ", ".join("%s+%s %d" % (names[a], names[b], running[a] + running[b]) for a, b in partners)
                )
    if any(d[1] == dealer for dealer, _c, _r, doubles, _s in rubber.deals for d in doubles):
        out.append(_("* doubled the dealer"))  # the legend of a mark some row shows
    for dealer, p, times in rubber.shortfalls():
        out.append(
            ngettext(
                "SHORT: %(player)s doubled %(dealer)s %(times)d time in %(dealer)s's round, not "
                "%(must)d (recorded; the seed sets no penalty)",
                "SHORT: %(player)s doubled %(dealer)s %(times)d times in %(dealer)s's round, not "
                "%(must)d (recorded; the seed sets no penalty)",
                times,
            )
            % {"player": names[p], "dealer": names[dealer], "times": times, "must": barbu.MUST_DOUBLE_DEALER}
        )
    if rubber.over():
        order = sorted(range(barbu.PLAYERS), key=lambda p: -running[p])
        out.append(_("Final: %s") % ", ".join("%s %d" % (names[p], running[p]) for p in order))
        if partners:
            pooled = sorted(zip(pair_totals(rubber, partners), partners), key=lambda tp: -tp[0])
            out.append(_("Final, pairs: %s") % ", ".join("%s+%s %d" % (names[a], names[b], t) for t, (a, b) in pooled))
    for problem in rubber.check():
        out.append(_("CHECK FAILED: %s") % problem)
    return out
