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
#   domino 4 1 3 2       seats in the order they went out
#   ... | 2x1 3x1! 4x1   2 doubles 1; 3 doubles 1, redoubled; 4 doubles 1
import json
from datetime import datetime, timezone

from cribcore import barbu

CONTRACT_WORDS = {c: c for c in barbu.CONTRACTS}
CONTRACT_WORDS.update({"king": "barbu", "notricks": "tricks", "lasttwo": "last2", "fantan": "domino"})


def parse_deal(line):
    """(contract, result, doubles) from a deal line; ValueError says what is wrong."""
    body, _, dbl = line.partition("|")
    words = body.split()
    if not words:
        raise ValueError("an empty deal: write CONTRACT and its result, e.g. 'queens 1 3 0 0'")
    contract = CONTRACT_WORDS.get(words[0].lower())
    if contract is None:
        raise ValueError("unknown contract %r (%s)" % (words[0], ", ".join(barbu.CONTRACTS)))
    args = words[1:]
    ace = None
    if contract == "hearts":
        rest = [a for a in args if not a.lower().startswith("ace=")]
        aces = [a for a in args if a.lower().startswith("ace=")]
        if len(aces) != 1:
            raise ValueError("hearts needs who took the ace: 'ace=SEAT'")
        ace = _seat(aces[0][4:])
        args = rest
    numbers = [_number(a) for a in args]
    want = {"barbu": 1, "last2": 2}.get(contract, 4)
    if len(numbers) != want:
        raise ValueError("%s needs %d number%s, not %d" % (contract, want, "s" if want > 1 else "", len(numbers)))
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
        re = word.endswith("!")
        a, sep, b = word.rstrip("!").lower().partition("x")
        if not sep:
            raise ValueError("a double is DOUBLERxDOUBLED, e.g. 2x1 (add ! if redoubled), not %r" % word)
        doubles.append([_seat(a), _seat(b), re])
    return contract, result, doubles


def _number(word):
    try:
        n = int(word)
    except ValueError:
        raise ValueError("%r is not a number" % word) from None
    if n < 0:
        raise ValueError("%d: counts are 0 or more" % n)
    return n


def _seat(word):
    n = _number(word)
    if not 1 <= n <= 4:
        raise ValueError("seats are 1 to 4, not %d" % n)
    return n - 1


def sheet_rows(rubber, names):
    """Lines of the score sheet: each deal, each dealer's round total, running totals."""
    out = []
    width = max(8, max(len(n) for n in names) + 1)
    head = "%-3s %-10s %-8s" % ("#", "dealer", "contract") + "".join("%*s" % (width, n) for n in names)
    out.append(head)
    out.append("-" * len(head))
    running = [0] * barbu.PLAYERS
    for i, (dealer, contract, _, doubles, scores) in enumerate(rubber.deals):
        marks = ["*" if [p, dealer] in [[d[0], d[1]] for d in doubles] else "" for p in range(barbu.PLAYERS)]
        cells = "".join("%*s" % (width, "%d%s" % (scores[p], marks[p])) for p in range(barbu.PLAYERS))
        out.append("%-3d %-10s %-8s%s" % (i + 1, names[dealer][:10], contract, cells))
        for p in range(barbu.PLAYERS):
            running[p] += scores[p]
        if (i + 1) % len(barbu.CONTRACTS) == 0 or i + 1 == len(rubber.deals):
            out.append("%-23s" % ("  round of %s" % names[dealer][:10])
                       + "".join("%*d" % (width, t) for t in rubber.round_totals(dealer)))
            out.append("%-23s" % "  running total" + "".join("%*d" % (width, t) for t in running))
    out.append("* doubled the dealer")
    if rubber.over():
        order = sorted(range(barbu.PLAYERS), key=lambda p: -running[p])
        out.append("Final: " + ", ".join("%s %d" % (names[p], running[p]) for p in order))
    for problem in rubber.check():
        out.append("CHECK FAILED: " + problem)
    return out


def save(db, rubber, names, rubber_id=None):
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    rec = json.dumps(dict(rubber.to_record(), names=names))
    with db.transaction():
        if rubber_id is None:
            return db.value("INSERT INTO barbu_rubbers (names, record, totals, deals, finished, created, updated) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                            (json.dumps(names), rec, json.dumps(rubber.totals()), len(rubber.deals),
                             int(rubber.over()), now, now))
        db.execute("UPDATE barbu_rubbers SET record = ?, totals = ?, deals = ?, finished = ?, updated = ? "
                   "WHERE id = ?", (rec, json.dumps(rubber.totals()), len(rubber.deals), int(rubber.over()),
                                    now, rubber_id))
        return rubber_id


def load(db, rubber_id):
    row = db.one("SELECT names, record FROM barbu_rubbers WHERE id = ?", (rubber_id,))
    if row is None:
        raise KeyError(rubber_id)
    return barbu.load_rubber(json.loads(row["record"])), json.loads(row["names"])


def listing(db):
    return [{"id": r["id"], "names": json.loads(r["names"]), "deals": r["deals"], "finished": bool(r["finished"]),
             "totals": json.loads(r["totals"]), "updated": r["updated"]}
            for r in db.all("SELECT * FROM barbu_rubbers ORDER BY id")]
