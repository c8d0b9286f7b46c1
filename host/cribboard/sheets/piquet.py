# The piquet score sheet's rules on the host: a partie kept without a board, one
# line a deal, checked and totalled by the core's PiquetGame (the board's
# own ledger), so a partie from the sheet is stored, listed, counted and
# exported exactly as one synced from a board. A deal is either its two
# totals ("45 12": each player's points in it, in the order of the names)
# or its cards ("cards ELDER / YOUNGER / TRICKS [/ ELDER DEALT / YOUNGER
# DEALT]"), scored by `piquet deal`'s code (cribboard.sheets.piquet_deal) and kept
# as card codes, so what is stored is the same in every language.
#
# A line: a deal, `undo` (the last deal) or `fix N <a deal>` (deal N). No
# database here and no words for the screen: cli/piquet_view.py says what
# changed, sheets/storage.py keeps the partie.
from typing import Any

from cribboard import __version__
from cribboard.sheets import piquet_deal as pd
from cribboard.sheets.change import Change
from cribboard.sheets.numbers import number
from cribboard.text.error_words import said
from cribboard.text.i18n import N_, _
from cribcore import record as records
from cribcore.game import DEAL
from cribcore.partie import MAX_ENTRY, RUBICON, PiquetMatch, rubicon
from cribrules.piquet import ELDER, YOUNGER

# Where sheet parties sit among the boards' games: no board id can hold a
# colon (intake.BOARD_ID), so this one is never taken for a board's.
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
                raise ValueError(
                    _("%(player)s's points are 0 to %(most)d in a deal, not %(given)r")
                    % {"player": self.names[who], "most": MAX_ENTRY, "given": n}
                )
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
        for seat, points, kind, _ticks in g.events[: g.cursor]:
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


def piquet_result(scores: list[int]) -> str:
    """A finished partie in a word: "rubicon" (the loser under 100: he
    loses the two totals and 100), "win" (100 and the difference), or
    "draw" (still tied after the two extra deals)."""
    if len(scores) != 2 or not all(type(s) is int for s in scores):
        raise ValueError(_("a partie has two totals, not %r") % (scores,))
    r = rubicon(scores)
    if r is None:
        return "draw"
    return "rubicon" if scores[1 - r[0]] < RUBICON else "win"


def parse_deal(text: str) -> Entry:
    """A deal as written: two counts, or `cards` and the deal's cards."""
    words = text.split(None, 1)
    if words and words[0].lower() == CARDS:
        return pd.from_line(words[1] if len(words) > 1 else "")
    words = text.split()
    if len(words) != 2:
        raise ValueError(
            _(
                "a deal is two counts, each player's points in it in the order of the names, "
                "e.g. '45 12', or 'cards' and its cards (see --help), not %r"
            )
            % text
        )
    return number(words[0]), number(words[1])


def apply(sheet: Sheet, text: str) -> tuple[Sheet, Change]:
    """One line: a deal, `undo` or `fix N A B`. Returns the sheet (a new one
    for undo and fix) and the Change; ValueError, the sheet unchanged, if
    the line cannot be right."""
    words = text.split(None, 2)
    head = words[0].lower()
    if head == "undo":
        if len(words) > 1:
            raise ValueError(_("undo takes nothing after it (it removes the last deal)"))
        entries = sheet.entries
        if not entries:
            raise ValueError(_("there is no deal to undo"))
        return sheet.with_entries(entries[:-1]), Change("removed", len(entries) - 1, sheet)
    if head == "fix":
        if len(words) < 3:
            raise ValueError(_("fix N A B: the deal's number, then its two counts as they should read"))
        n = number(words[1])
        entries = list(sheet.entries)
        if not 1 <= n <= len(entries):
            raise ValueError(
                _("there is no deal %(number)d to fix (deals 1 to %(last)d)") % {"number": n, "last": len(entries)}
                if entries
                else _("there is no deal to fix yet")
            )
        entries[n - 1] = parse_deal(words[2])
        return sheet.with_entries(entries), Change("fixed", n - 1, sheet)
    sheet.enter(parse_deal(text))
    return sheet, Change("entered", len(sheet.entries) - 1, None)


RESULTS = (N_("win"), N_("rubicon"), N_("draw"))  # a finished partie's result, as JSON says it (in English)


def as_json(sheet: Sheet, sheet_id: int | None) -> dict[str, Any]:
    """The partie for a program: names, who dealt first, each deal, the totals and the result."""
    g = sheet.game
    r = g.rubicon()
    t = g.scores()
    result = None
    if g.over():
        result = {
            "winner": None if r is None else sheet.names[r[0]],
            "points": None if r is None else r[1],
            "result": piquet_result(t),
        }
    return {
        "id": sheet_id,
        "names": sheet.names,
        "first_dealer": sheet.names[g.first_dealer],
        "deals": [_deal_json(sheet, k, a, b) for k, (a, b) in enumerate(sheet.deals())],
        "totals": t,
        "finished": g.over(),
        "result": result,
    }


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


def from_kept(names: Any, kept: Any) -> Sheet:
    """A sheet from what is kept of it (its names, and its first dealer and
    deals), every deal checked again; ValueError if it cannot be a partie."""
    try:
        first = kept["first_dealer"]
        entries: list[Entry] = [d if isinstance(d, dict) else (d[0], d[1]) for d in kept["deals"]]
    except (TypeError, KeyError, IndexError):
        raise ValueError(_("what is kept of it is not a sheet")) from None
    if first not in (0, 1) or not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(_("what is kept of it is not a sheet"))
    return Sheet(names, first, entries)


def kept(sheet: Sheet) -> dict[str, Any]:
    """What is kept of a sheet: who dealt first and the deals as written."""
    return {"first_dealer": sheet.game.first_dealer, "deals": sheet.entries}
