# The piquet score sheet on the host: a partie kept without a board, one
# line a deal, checked and totalled by the core's PiquetGame (the board's
# own ledger), so a partie from the sheet is stored, listed, counted and
# exported exactly as one synced from a board. A deal is either its two
# totals ("45 12": each player's points in it, in the order of the names)
# or its cards ("cards ELDER / YOUNGER / TRICKS [/ ELDER DEALT / YOUNGER
# DEALT]"), scored by `piquet deal`'s code (cribboard.piquet_deal) and kept
# as card codes, so what is stored is the same in every language.
#
# A line: a deal, `undo` (the last deal) or `fix N <a deal>` (deal N).
import json
import re
import time
from datetime import datetime, timezone
from typing import Any

from cribboard import __version__, store
from cribboard import piquet_deal as pd
from cribboard.i18n import N_, _, ngettext
from cribboard.records import check
from cribboard.said import said
from cribboard.stats import piquet_result
from cribboard.told import Routine
from cribcore import record as records
from cribcore.game import DEAL
from cribcore.partie import DEALS, EXTRA_DEALS, MAX_ENTRY, RUBICON, PiquetMatch
from cribcore.piquet import ELDER, YOUNGER

# Where sheet parties sit among the boards' games: no board id can hold a
# colon (sync.BOARD_ID), so this one is never taken for a board's.
SHEET_BOARD = "sheet:piquet"

Deals = list[tuple[int, int]]
Entry = tuple[int, int] | pd.Kept  # a deal as written: its two totals, or its cards (kept)
CARDS = "cards"  # the word that starts a deal written as its cards


class Sheet:
    """A partie as the table writes it: the names, who dealt first, the deals."""

    def __init__(self, names: list[str], first_dealer: int = 0, entries: list[Entry] | None = None) -> None:
        if len(names) != 2:
            raise ValueError(_("piquet is for two players, not %d") % len(names))
        self.names = names
        self.match = PiquetMatch(first_dealer)
        self.entries: list[Entry] = []
        self.scored: list[dict[str, Any] | None] = []  # a deal from the cards: how it was scored
        for k, entry in enumerate(entries or []):
            try:
                self.enter(entry)
            except ValueError as e:
                raise ValueError(_("deal %(number)d: %(problem)s") % {"number": k + 1, "problem": said(e)}) from None

    @property
    def game(self) -> Any:
        return self.match.game

    def add(self, a: int, b: int) -> None:
        """One deal: each player's points in it (ValueError, nothing entered, if it cannot be)."""
        g = self.game
        if g.over():
            raise ValueError(_("the partie is over (undo or fix a deal to change it)"))
        for who, n in ((0, a), (1, b)):
            if type(n) is not int or not 0 <= n <= MAX_ENTRY:
                raise ValueError(_("%(player)s's points are 0 to %(most)d in a deal, not %(given)r") % {
                    "player": self.names[who], "most": MAX_ENTRY, "given": n})
        for who, n in ((0, a), (1, b)):
            if n:
                g.add(who, n)
        g.pass_deal()

    def enter(self, entry: Entry) -> None:
        """One deal as written: two totals, or the cards (scored here, each
        player's by seat: elder is the one who did not deal)."""
        if isinstance(entry, dict):
            result = pd.score_kept(entry)
            elder = 1 - self.dealer_of(len(self.entries))
            points = [0, 0]
            points[elder], points[1 - elder] = result["scores"][ELDER], result["scores"][YOUNGER]
            self.add(points[0], points[1])
        else:
            result = None
            self.add(entry[0], entry[1])
        self.entries.append(entry)
        self.scored.append(result)

    def deals(self) -> Deals:
        """Each deal's points, as entered."""
        out: Deals = []
        scores = [0, 0]
        g = self.game
        for seat, points, kind, _ticks in g.events[:g.cursor]:
            if kind == DEAL:
                out.append((scores[0], scores[1]))
                scores = [0, 0]
            else:
                scores[seat] += points
        return out

    def dealer_of(self, k: int) -> int:
        """Who dealt deal k (0-based): the dealer alternates."""
        return (self.game.first_dealer + k) % 2

    def with_entries(self, entries: list[Entry]) -> "Sheet":
        """This partie with these deals instead, each checked again."""
        return Sheet(self.names, self.game.first_dealer, entries)


def _number(word: str) -> int:
    if re.fullmatch(r"[0-9]+", word, re.ASCII) is None:
        raise ValueError(_("%r is not a count of points (digits 0-9)") % word)
    return int(word)


def parse_deal(text: str) -> Entry:
    """A deal as written: two counts, or `cards` and the deal's cards."""
    words = text.split(None, 1)
    if words and words[0].lower() == CARDS:
        return pd.from_line(words[1] if len(words) > 1 else "")
    words = text.split()
    if len(words) != 2:
        raise ValueError(_("a deal is two counts, each player's points in it in the order of the names, "
                           "e.g. '45 12', or 'cards' and its cards (see --help), not %r") % text)
    return _number(words[0]), _number(words[1])


def scoring_lines(sheet: Sheet, k: int) -> list[str]:
    """How deal k was scored, if it was from its cards: `piquet deal`'s lines."""
    result = sheet.scored[k]
    return [] if result is None else ["  " + line for line in pd.lines(result)]


def describe(sheet: Sheet, k: int) -> str:
    a, b = sheet.deals()[k]
    dealer = sheet.dealer_of(k)
    return _("deal %(number)d (%(dealer)s dealt, %(elder)s elder): %(first)s +%(a)d, %(second)s +%(b)d") % {
        "number": k + 1, "dealer": sheet.names[dealer], "elder": sheet.names[1 - dealer], "first": sheet.names[0],
        "a": a, "second": sheet.names[1], "b": b}


def command(sheet: Sheet, text: str) -> tuple[Sheet, list[str]]:
    """One line: a deal, `undo` or `fix N A B`. Returns the sheet (a new one
    for undo and fix) and what to tell the table; ValueError, the sheet
    unchanged, if the line cannot be right."""
    words = text.split(None, 2)
    head = words[0].lower()
    if head == "undo":
        if len(words) > 1:
            raise ValueError(_("undo takes nothing after it (it removes the last deal)"))
        entries = sheet.entries
        if not entries:
            raise ValueError(_("there is no deal to undo"))
        gone = describe(sheet, len(entries) - 1)
        again = sheet.with_entries(entries[:-1])
        return again, [_("removed %s") % gone] + totals_lines(again)
    if head == "fix":
        if len(words) < 3:
            raise ValueError(_("fix N A B: the deal's number, then its two counts as they should read"))
        n = _number(words[1])
        entries = list(sheet.entries)
        if not 1 <= n <= len(entries):
            raise ValueError(_("there is no deal %(number)d to fix (deals 1 to %(last)d)") % {
                "number": n, "last": len(entries)} if entries else _("there is no deal to fix yet"))
        was = describe(sheet, n - 1)
        entries[n - 1] = parse_deal(words[2])
        again = sheet.with_entries(entries)
        return again, scoring_lines(again, n - 1) + [_("fixed: %(deal)s (was: %(was)s)") % {
            "deal": describe(again, n - 1), "was": was}] + totals_lines(again)
    sheet.enter(parse_deal(text))
    k = len(sheet.entries) - 1
    return sheet, scoring_lines(sheet, k) + [Routine(describe(sheet, k))] + totals_lines(sheet)


def totals_lines(sheet: Sheet) -> list[str]:
    """The running totals, and the partie's result once the deals decide it."""
    g, names = sheet.game, sheet.names
    t = g.scores()
    played = len(sheet.deals())
    out: list[str] = [Routine("  " + _("totals: %(first)s %(a)d, %(second)s %(b)d") % {
        "first": names[0], "a": t[0], "second": names[1], "b": t[1]})]
    if g.over():
        out.append(Routine("  " + result_text(sheet)))  # the sheet printed at the end says it too
    elif played == DEALS and t[0] == t[1]:
        out.append(Routine("  " + _("tied at %(score)d after %(deals)d deals: %(more)d more deals decide it") % {
            "score": t[0], "deals": DEALS, "more": EXTRA_DEALS}))
    return out


def result_text(sheet: Sheet) -> str:
    """The finished partie in words, with the rubicon's arithmetic."""
    g, names = sheet.game, sheet.names
    t = g.scores()
    r = g.rubicon()
    if r is None:
        return _("the partie is drawn: still tied at %(score)d after %(deals)d deals (no points)") % {
            "score": t[0], "deals": DEALS + EXTRA_DEALS}
    w, points = r
    lost = t[1 - w]
    if lost < RUBICON:
        return _("%(winner)s wins; %(loser)s is rubiconed (%(lost)d, under %(rubicon)d): %(rubicon)d + %(won)d + "
                 "%(lost)d = %(points)d points") % {"winner": names[w], "loser": names[1 - w], "lost": lost,
                                                     "rubicon": RUBICON, "won": t[w], "points": points}
    return _("%(winner)s wins, %(won)d to %(lost)d: %(rubicon)d + %(difference)d = %(points)d points") % {
        "winner": names[w], "won": t[w], "lost": lost, "rubicon": RUBICON, "difference": t[w] - lost, "points": points}


def prompt(sheet: Sheet) -> str:
    g = sheet.game
    if g.over():
        return _("the partie is over (undo, fix N A B, or quit)")
    dealer = g.dealer()
    return _("deal %(number)d: %(dealer)s deals, %(elder)s is elder; %(first)s's points and %(second)s's") % {
        "number": g.deal_number(), "dealer": sheet.names[dealer], "elder": sheet.names[1 - dealer],
        "first": sheet.names[0], "second": sheet.names[1]}


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
        out.append("%-3d %-12s" % (k + 1, names[sheet.dealer_of(k)][:12])
                   + "".join("%*s" % (width, "%d (%d)" % (d, r)) for d, r in ((a, run[0]), (b, run[1]))))
        out.extend("    " + line for line in scoring_lines(sheet, k))
    out.append(_("(a deal's points, then the running total)"))
    out.append(result_text(sheet) if sheet.game.over() else ngettext(
        "unfinished: %(played)d deal played of %(deals)d (%(tie)d on a tie)",
        "unfinished: %(played)d deals played of %(deals)d (%(tie)d on a tie)", len(sheet.deals())) % {
        "played": len(sheet.deals()), "deals": DEALS, "tie": DEALS + EXTRA_DEALS})
    return out


RESULTS = (N_("win"), N_("rubicon"), N_("draw"))  # a finished partie's result, as JSON says it (in English)


def as_json(sheet: Sheet, sheet_id: int | None) -> dict[str, Any]:
    """The partie for a program: names, who dealt first, each deal, the totals and the result."""
    g = sheet.game
    r = g.rubicon()
    t = g.scores()
    result = None
    if g.over():
        result = {"winner": None if r is None else sheet.names[r[0]], "points": None if r is None else r[1],
                  "result": piquet_result(t)}
    return {"id": sheet_id, "names": sheet.names, "first_dealer": sheet.names[g.first_dealer],
            "deals": [_deal_json(sheet, k, a, b) for k, (a, b) in enumerate(sheet.deals())],
            "totals": t, "finished": g.over(), "result": result}


def _deal_json(sheet: Sheet, k: int, a: int, b: int) -> dict[str, Any]:
    """Deal k for a program: who dealt, each player's points; from the cards,
    the cards as kept and how they scored (`piquet deal --json`'s)."""
    out: dict[str, Any] = {"dealer": sheet.names[sheet.dealer_of(k)], "points": [a, b]}
    entry = sheet.entries[k]
    if isinstance(entry, dict):
        out["cards"] = entry
        out["scored"] = sheet.scored[k]
    return out


def record(sheet: Sheet, sheet_id: int) -> dict[str, Any]:
    """The finished partie as a board's game record (so sync's checks, the
    listings and the exports take it as they take a board's)."""
    rec = records.game_record(sheet.match, 0)
    rec.update(match=sheet_id, game_no=1, names=sheet.names, board=SHEET_BOARD, firmware="cribboard " + __version__)
    return rec


def save(db: Any, sheet: Sheet, sheet_id: int | None = None) -> int:
    """Keep the sheet after a change; a finished partie is also a game among
    the boards' (the one stored before is replaced: undo and fix reach it)."""
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    kept = json.dumps({"first_dealer": sheet.game.first_dealer, "deals": sheet.entries})
    with db.transaction():
        kept_id = store.sheets.save_partie(db, sheet_id, json.dumps(sheet.names), kept, len(sheet.deals()),
                                           sheet.game.over(), now)
        store.games.forget_game(db, SHEET_BOARD, kept_id)
        if sheet.game.over():
            game = check(json.dumps(record(sheet, kept_id)))
            store.games.add(db, SHEET_BOARD, "cribboard " + __version__, [(kept_id, game)], now, {kept_id: time.time()})
    return kept_id


def load(db: Any, sheet_id: int) -> Sheet:
    """A kept sheet, every deal checked again: KeyError if there is none,
    ValueError if what is kept cannot be a partie."""
    row = store.sheets.partie(db, sheet_id)
    if row is None:
        raise KeyError(sheet_id)
    try:
        names, kept = json.loads(row["names"]), json.loads(row["record"])
        first = kept["first_dealer"]
        entries: list[Entry] = [d if isinstance(d, dict) else (d[0], d[1]) for d in kept["deals"]]
    except (ValueError, TypeError, KeyError, IndexError):
        raise ValueError(_("what is kept of it is not a sheet")) from None
    if first not in (0, 1) or not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(_("what is kept of it is not a sheet"))
    return Sheet(names, first, entries)


def listing(db: Any) -> list[dict[str, Any]]:
    """Every sheet, with its totals (a row that cannot be read says so)."""
    out = []
    for r in store.sheets.parties(db):
        row = {"id": r["id"], "names": None, "deals": r["deals"], "finished": bool(r["finished"]),
               "updated": r["updated"], "totals": None, "result": None, "problem": None}
        try:
            sheet = load(db, r["id"])
            row["names"], row["totals"] = sheet.names, sheet.game.scores()
            row["result"] = as_json(sheet, r["id"])["result"]  # the same words in every language
        except ValueError as e:
            row["problem"] = str(e)
        out.append(row)
    return out
