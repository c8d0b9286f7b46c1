# The barbu score sheet on the host: one line of text per deal, checked by
# cribcore.barbu, printed per dealer with running totals, kept in the database.
#
# A deal line: CONTRACT RESULT [| DOUBLES], seats numbered 1 to 4:
#   barbu 3              seat 3 took the king of hearts
#   hearts 5 4 3 1 ace=2 hearts taken by seats 1-4; seat 2 took the ace
#   queens 1 3 0 0       queens taken
#   tricks 4 3 3 3       tricks taken (no tricks)
#   last2 1 4            who took the 12th and the 13th trick
#   trumps 5 2 2 4       tricks taken
#   domino 4 1 3 2       seats in the order they went out (the last may be left out)
#   ... | 2x1 3x1! 4x1   2 doubles 1; 3 doubles 1, redoubled; 4 doubles 1
# Besides deals: `undo` (the last deal) and `fix N DEAL` (deal N replaced,
# the later ones checked again).
import json
import re
import unicodedata
from datetime import datetime, timezone

from cribboard.i18n import N_, _, ngettext
from cribboard.said import said
from cribboard.store import sheets
from cribboard.told import Routine
from cribcore import barbu

# The contracts as the table names them: the code's English words (always
# understood), and each language's own (seed 004's in Spanish: barbú,
# corazones, damas, bazas, dos últimas, triunfo, dominó), shown and read.
CONTRACT_NAMES = {"barbu": N_("barbu"), "hearts": N_("hearts"), "queens": N_("queens"), "tricks": N_("tricks"),
                  "last2": N_("last2"), "trumps": N_("trumps"), "domino": N_("domino")}
ALIASES = {"king": "barbu", "notricks": "tricks", "lasttwo": "last2", "fantan": "domino"}


def contract_name(contract):
    """The contract's name in the table's language."""
    return _(CONTRACT_NAMES[contract])


def _plain(text):
    """A name as typed, whatever the accents, case, spaces or hyphens: dos-Últimas -> dosultimas."""
    letters = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in letters if c.isalnum() and not unicodedata.combining(c))


def contract_words():
    """Every name the sheet reads, plain (see _plain), to the contract."""
    words = {c: c for c in barbu.CONTRACTS}
    words.update(ALIASES)
    for c in barbu.CONTRACTS:
        words[_plain(contract_name(c))] = c
    return words


def _contract(words):
    """(contract, how many words its name took) from the start of a deal line, or ValueError."""
    known = contract_words()
    if len(words) > 1 and _plain(words[0] + words[1]) in known and _plain(words[0]) not in known:
        return known[_plain(words[0] + words[1])], 2  # a name of two words: dos últimas, ultime due
    if _plain(words[0]) in known:
        return known[_plain(words[0])], 1
    raise ValueError(_("unknown contract %(word)r (%(names)s)") % {
        "word": words[0], "names": ", ".join(contract_name(c) for c in barbu.CONTRACTS)})


def parse_deal(line):
    """(contract, result, doubles) from a deal line; ValueError says what is wrong."""
    body, _bar, dbl = line.partition("|")
    words = body.split()
    if not words:
        raise ValueError(_("an empty deal: write CONTRACT and its result, e.g. 'queens 1 3 0 0'"))
    contract, taken = _contract(words)
    args = words[taken:]
    ace = None
    if contract == "hearts":
        rest = [a for a in args if not a.lower().startswith("ace=")]
        aces = [a for a in args if a.lower().startswith("ace=")]
        if len(aces) != 1:
            raise ValueError(_("hearts needs who took the ace: 'ace=SEAT'"))
        ace = _seat(aces[0][4:])
        args = rest
    numbers = [_number(a) for a in args]
    if contract == "domino" and len(numbers) == 3:  # the last out need not finish: he is the one left
        left = {1, 2, 3, 4} - set(numbers)
        if len(left) != 1:
            raise ValueError(_("domino: the seats in the order they went out, each once (the last may be left "
                               "out)"))
        numbers.append(left.pop())
        args = [str(n) for n in numbers]
    want = {"barbu": 1, "last2": 2}.get(contract, 4)
    if len(numbers) != want:
        raise ValueError(ngettext("%(contract)s needs %(want)d number, not %(given)d",
                                  "%(contract)s needs %(want)d numbers, not %(given)d", want) % {
            "contract": contract_name(contract), "want": want, "given": len(numbers)})
    if contract == "barbu":
        result = {"taker": _seat(args[0])}
    elif contract == "hearts":
        result = {"hearts": numbers, "ace": ace}
    elif contract == "queens":
        result = {"queens": numbers}
    elif contract in ("tricks", "trumps"):
        result = {"tricks": numbers}
    elif contract == "last2":
        result = {"twelfth": _seat(args[0]), "thirteenth": _seat(args[1])}
    else:
        result = {"order": [_seat(a) for a in args]}
    doubles = []
    for word in dbl.split():
        found = _DOUBLE.fullmatch(word)
        if found is None:
            raise ValueError(_("a double is DOUBLERxDOUBLED, e.g. 2x1, with one ! if redoubled (2x1!), not %r")
                             % word)
        doubles.append([_seat(found[1]), _seat(found[2]), found[3] == "!"])
    return contract, result, doubles


_DOUBLE = re.compile(r"([0-9]+)[xX]([0-9]+)(!?)", re.ASCII)


def deal_line(contract, result, doubles):
    """The sheet's line for a deal (parse_deal reads it back the same), so
    the table can see, or type again, what it removed."""
    if contract == "barbu":
        words = [result["taker"] + 1]
    elif contract == "hearts":
        words = result["hearts"] + ["ace=%d" % (result["ace"] + 1)]
    elif contract == "queens":
        words = result["queens"]
    elif contract in ("tricks", "trumps"):
        words = result["tricks"]
    elif contract == "last2":
        words = [result["twelfth"] + 1, result["thirteenth"] + 1]
    else:
        words = [p + 1 for p in result["order"]]
    line = " ".join([contract] + [str(w) for w in words])
    if doubles:
        line += " | " + " ".join("%dx%d%s" % (a + 1, b + 1, "!" if r else "") for a, b, r in doubles)
    return line


def _number(word):
    """A count or a seat: plain digits 0-9 (int() would take 1_0 and other scripts' digits)."""
    if re.fullmatch(r"[0-9]+", word, re.ASCII) is None:
        if re.fullmatch(r"-[0-9]+", word, re.ASCII):
            raise ValueError(_("%s: counts are 0 or more") % word)
        raise ValueError(_("%r is not a number (digits 0-9)") % word)
    return int(word)


def _seat(word):
    n = _number(word)
    if not 1 <= n <= 4:
        raise ValueError(_("seats are 1 to 4, not %d") % n)
    return n - 1


def rebuilt(rubber, deals):
    """The rubber with these deals, [(contract, result, doubles)], each
    checked again in order; ValueError names the first that no longer fits."""
    again = barbu.Rubber(rubber.first_dealer, rubber.names)
    for k, (contract, result, doubles) in enumerate(deals):
        try:
            again.add(contract, result, doubles)
        except ValueError as e:
            raise ValueError(_("deal %(number)d: %(problem)s") % {"number": k + 1, "problem": said(e)}) from None
    return again


def describe(rubber, k):
    """Deal k (0-based) in words: who dealt what, and the doubles."""
    dealer, contract, _result, doubles, _scores = rubber.deals[k]
    bets = ", ".join((_("%(a)s doubled %(b)s (redoubled)") if r else _("%(a)s doubled %(b)s")) % {
        "a": rubber.name(a), "b": rubber.name(b)} for a, b, r in doubles)
    return _("deal %(number)d, %(contract)s by %(dealer)s") % {
        "number": k + 1, "contract": contract_name(contract), "dealer": rubber.name(dealer)} + (
        "; " + bets if bets else "")


def command(rubber, text):
    """One line of the sheet: a deal, `undo`, or `fix N DEAL`. Returns the
    rubber (a new one for undo and fix) and what to tell the table; ValueError
    (and the rubber unchanged) if the line cannot be right."""
    words = text.split(None, 2)
    if words[0].lower() == "undo":
        if len(words) > 1:
            raise ValueError(_("undo takes nothing after it (it removes the last deal)"))
        if not rubber.deals:
            raise ValueError(_("there is no deal to undo"))
        gone = describe(rubber, len(rubber.deals) - 1)
        _dealer, c, r, d, _scores = rubber.deals[-1]
        again = rebuilt(rubber, [(c, r, d) for _dealer, c, r, d, _scores in rubber.deals[:-1]])
        return again, [_("removed %(deal)s (it read: %(line)s)") % {"deal": gone, "line": deal_line(c, r, d)}] \
            + duty_lines(again)
    if words[0].lower() == "fix":
        if len(words) < 3:
            raise ValueError(_("fix N DEAL: the deal's number, then the deal as it should read"))
        n = _number(words[1])
        if not 1 <= n <= len(rubber.deals):
            raise ValueError(_("there is no deal %(number)d to fix (deals 1 to %(last)d)") % {
                "number": n, "last": len(rubber.deals)})
        contract, result, doubles = parse_deal(words[2])
        deals = [(c, r, d) for _dealer, c, r, d, _scores in rubber.deals]
        deals[n - 1] = (contract, result, doubles)
        was = describe(rubber, n - 1)
        again = rebuilt(rubber, deals)
        return again, [_("fixed: %(deal)s (was: %(was)s)") % {"deal": describe(again, n - 1), "was": was}] \
            + totals_lines(again) \
            + duty_lines(again)
    contract, result, doubles = parse_deal(text)
    rubber.add(contract, result, doubles)
    return rubber, deal_lines(rubber)


def deal_lines(rubber):
    """After a deal: its scores with the doubles settled, the running totals,
    the check, and where the dealer's doubles stand."""
    k = len(rubber.deals) - 1
    _dealer, contract, result, doubles, scores = rubber.deals[k]
    raw = barbu.contract_scores(contract, result)
    out: list[str] = [Routine(describe(rubber, k))]
    out.append(Routine("  " + _("scores: %s") % ", ".join("%s %+d" % (rubber.name(p), scores[p])
                                                         for p in range(barbu.PLAYERS))
                       + ("  " + _("(before the doubles: %s)") % " ".join("%+d" % v for v in raw) if doubles else "")))
    return out + totals_lines(rubber) + duty_lines(rubber)


def totals_lines(rubber):
    """The round's and the rubber's running totals, and the zero-sum check."""
    if not rubber.deals:
        return []
    dealer = rubber.deals[-1][0]
    played = [d[1] for d in rubber.deals if d[0] == dealer]
    rnd = rubber.round_totals(dealer)
    whole = rubber.totals()
    out: list[str] = [Routine("  " + _("round of %(dealer)s: %(totals)s") % {
        "dealer": rubber.name(dealer), "totals": ", ".join("%s %d" % (rubber.name(p), rnd[p])
                                                           for p in range(barbu.PLAYERS))}),
           Routine("  " + _("rubber:  %s") % ", ".join("%s %d" % (rubber.name(p), whole[p])
                                                        for p in range(barbu.PLAYERS)))]
    want = sum(barbu.TOTALS[c] for c in played)
    if sum(rnd) == want:
        out.append(Routine("  " + ngettext("check: the round adds up to %(sum)d, as its %(n)d contract does",
                                           "check: the round adds up to %(sum)d, as its %(n)d contracts do",
                                           len(played)) % {"sum": sum(rnd), "n": len(played)}
                           + (_("; the round is done: 0") if len(played) == len(barbu.CONTRACTS) else "")))
    else:
        out.append("  " + _("CHECK FAILED: the round adds up to %(sum)d; its contracts make %(want)d") % {
            "sum": sum(rnd), "want": want})
    for problem in rubber.check():
        out.append("  " + _("CHECK FAILED: %s") % problem)
    return out


def duty_lines(rubber):
    """How many times each player has doubled the current dealer (the seed's
    asterisks), and a warning by name when the rule comes to its last chance
    or can no longer be met. A round that just ended says who fell short."""
    out = []
    k = len(rubber.deals)
    n = len(barbu.CONTRACTS)
    if k and k % n == 0:
        for dealer, p, times in rubber.shortfalls():
            if dealer == rubber.deals[k - 1][0]:
                out.append("  " + ngettext("marked: %(player)s doubled %(dealer)s %(times)d time in the round, "
                                           "not %(must)d", "marked: %(player)s doubled %(dealer)s %(times)d times "
                                           "in the round, not %(must)d", times) % {
                    "player": rubber.name(p), "dealer": rubber.name(dealer), "times": times,
                    "must": barbu.MUST_DOUBLE_DEALER})
    if rubber.over():
        return out
    dealer = rubber.dealer()
    count = rubber.doubled_dealer(k - 1) if k % n else [0] * barbu.PLAYERS
    out.append(Routine("  " + _("%(dealer)s deals next; doubled %(dealer)s so far: %(counts)s") % {
        "dealer": rubber.name(dealer),
        "counts": ", ".join("%s %s" % (rubber.name(p), "*" * count[p] or "-") for p in range(barbu.PLAYERS)
                            if p != dealer)}))
    for p, _times, needed, left in rubber.duty():
        if needed == left:
            says = _("warning: %(player)s must double %(dealer)s in the last deal of the round") if left == 1 \
                else _("warning: %(player)s must double %(dealer)s in every one of the %(left)d deals left in the "
                       "round")
            out.append("  " + says % {"player": rubber.name(p), "dealer": rubber.name(dealer), "left": left})
        elif needed > left:
            out.append("  " + ngettext(
                "warning: %(player)s can no longer double %(dealer)s twice in this round (%(left)d deal left, "
                "%(needed)d to go): the sheet will mark it",
                "warning: %(player)s can no longer double %(dealer)s twice in this round (%(left)d deals left, "
                "%(needed)d to go): the sheet will mark it", left) % {
                "player": rubber.name(p), "dealer": rubber.name(dealer), "left": left, "needed": needed})
    return out


def sheet_rows(rubber, names, partners=None):
    """Lines of the score sheet: each deal, each dealer's round total, running
    totals (and the pairs' pooled totals in a partnership game)."""
    out = []
    width = max(8, max(len(n) for n in names) + 1)
    head = "%-3s %-10s %-11s" % ("#", _("dealer")[:10], _("contract")[:11]) + "".join("%*s" % (width, n)
                                                                                     for n in names)
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
            out.append("%-26s" % ("  " + _("round of %s") % names[dealer][:10])
                       + "".join("%*d" % (width, t) for t in rubber.round_totals(dealer)))
            out.append("%-26s" % ("  " + _("running total")) + "".join("%*d" % (width, t) for t in running))
            if partners:
                out.append("  " + _("pairs: %s") % ", ".join("%s+%s %d" % (names[a], names[b], running[a] + running[b])
                                                    for a, b in partners))
    out.append(_("* doubled the dealer"))
    for dealer, p, times in rubber.shortfalls():
        out.append(ngettext("SHORT: %(player)s doubled %(dealer)s %(times)d time in %(dealer)s's round, not "
                            "%(must)d (recorded; the seed sets no penalty)",
                            "SHORT: %(player)s doubled %(dealer)s %(times)d times in %(dealer)s's round, not "
                            "%(must)d (recorded; the seed sets no penalty)", times) % {
            "player": names[p], "dealer": names[dealer], "times": times, "must": barbu.MUST_DOUBLE_DEALER})
    if rubber.over():
        order = sorted(range(barbu.PLAYERS), key=lambda p: -running[p])
        out.append(_("Final: %s") % ", ".join("%s %d" % (names[p], running[p]) for p in order))
        if partners:
            pooled = sorted(zip(pair_totals(rubber, partners), partners), key=lambda tp: -tp[0])
            out.append(_("Final, pairs: %s") % ", ".join("%s+%s %d" % (names[a], names[b], t) for t, (a, b) in pooled))
    for problem in rubber.check():
        out.append(_("CHECK FAILED: %s") % problem)
    return out


def parse_partners(text):
    """--partners "1+3,2+4": the two pairs, seats 0-based; ValueError says what is wrong."""
    pairs = []
    for part in text.split(","):
        seats = part.split("+")
        if len(seats) != 2:
            raise ValueError(_("--partners is two pairs of seats, e.g. 1+3,2+4, not %r") % text)
        pairs.append(sorted(_seat(w.strip()) for w in seats))
    if len(pairs) != 2 or sorted(pairs[0] + pairs[1]) != [0, 1, 2, 3]:
        raise ValueError(_("--partners is two pairs that seat all four players once, e.g. 1+3,2+4, not %r") % text)
    return sorted(pairs)


def pair_totals(rubber, partners):
    """Each pair's pooled total (seed 004's partnership game keeps the score in common)."""
    t = rubber.totals()
    return [t[a] + t[b] for a, b in partners]


def record(rubber, names, partners=None):
    """What the database keeps of a rubber, and what export gives."""
    rec = dict(rubber.to_record(), names=names)
    if partners:
        rec["partners"] = partners
        rec["pair_totals"] = pair_totals(rubber, partners)
    return rec


def save(db, rubber, names, rubber_id=None, partners=None):
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    rec = json.dumps(record(rubber, names, partners))
    return sheets.save_rubber(db, rubber_id, json.dumps(names), rec, json.dumps(rubber.totals()), len(rubber.deals),
                              rubber.over(), now)


def load(db, rubber_id):
    """(rubber, names, partners or None) of a stored rubber: KeyError if there
    is none, ValueError if its record is not one this tool can check again
    (say which deal)."""
    row = sheets.rubber(db, rubber_id)
    if row is None:
        raise KeyError(rubber_id)
    try:
        names, record = json.loads(row["names"]), json.loads(row["record"])
    except ValueError:
        raise ValueError(_("its record is not JSON")) from None
    if not isinstance(names, list) or len(names) != barbu.PLAYERS or not all(isinstance(n, str) for n in names):
        raise ValueError(_("its names are not four names"))
    return barbu.load_rubber(record, names), names, _partners(record)


def _partners(record):
    """The pairs a stored record names (None: not a partnership game); ValueError if they are no pairs."""
    partners = record.get("partners") if isinstance(record, dict) else None
    if partners is None:
        return None
    try:
        return parse_partners(",".join("%d+%d" % (a + 1, b + 1) for a, b in partners))
    except (TypeError, ValueError):
        raise ValueError(_("its partners are not two pairs of seats")) from None


def listing(db):
    out = []
    for r in sheets.rubbers(db):
        try:
            partners = _partners(json.loads(r["record"]))
        except ValueError:
            partners = None  # listed without its pairs; show and export say what is wrong
        out.append({"id": r["id"], "names": json.loads(r["names"]), "deals": r["deals"],
                    "finished": bool(r["finished"]), "totals": json.loads(r["totals"]), "updated": r["updated"],
                    "partners": partners})
    return out
