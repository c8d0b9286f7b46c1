# The barbu score sheet's rules on the host: the grammar of its lines (a
# deal, `undo`, `fix N DEAL`) and its ledger, a cribrules.barbu Rubber
# checked again after every change. No database here, and no words for the
# screen: cli/barbu_view.py says what changed, sheets/storage.py keeps the rubber.
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
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from cribboard.sheets.change import Change
from cribboard.sheets.numbers import number
from cribboard.text.error_words import said
from cribboard.text.game_words import CONTRACT_NAMES
from cribboard.text.i18n import _, ngettext
from cribrules import barbu

ALIASES = {"king": "barbu", "notricks": "tricks", "lasttwo": "last2", "fantan": "domino"}


def contract_name(contract: str) -> str:
    """The contract's name in the table's language."""
    return _(CONTRACT_NAMES[contract])


def _plain(text: str) -> str:
    """A name as typed, whatever the accents, case, spaces or hyphens: dos-Últimas -> dosultimas."""
    letters = unicodedata.normalize("NFD", text.lower())
    return "".join(c for c in letters if c.isalnum() and not unicodedata.combining(c))


def contract_words() -> dict[str, str]:
    """Every name the sheet reads, plain (see _plain), to the contract."""
    words = {c: c for c in barbu.CONTRACTS}
    words.update(ALIASES)
    for c in barbu.CONTRACTS:
        words[_plain(contract_name(c))] = c
    return words


def _contract(words: list[str]) -> tuple[str, int]:
    """(contract, how many words its name took) from the start of a deal line, or ValueError."""
    known = contract_words()
    if len(words) > 1 and _plain(words[0] + words[1]) in known and _plain(words[0]) not in known:
        return known[_plain(words[0] + words[1])], 2  # a name of two words: dos últimas, ultime due
    if _plain(words[0]) in known:
        return known[_plain(words[0])], 1
    raise ValueError(
        _("unknown contract %(word)r (%(names)s)")
        % {"word": words[0], "names": ", ".join(contract_name(c) for c in barbu.CONTRACTS)}
    )


def parse_deal(line: str) -> tuple[str, dict[str, Any], list[list[Any]]]:
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
    numbers = [number(a) for a in args]
    if contract == "domino" and len(numbers) == 3:  # the last out need not finish: he is the one left
        left = {1, 2, 3, 4} - set(numbers)
        if len(left) != 1:
            raise ValueError(_("domino: the seats in the order they went out, each once (the last may be left out)"))
        numbers.append(left.pop())
        args = [str(n) for n in numbers]
    want = {"barbu": 1, "last2": 2}.get(contract, 4)
    if len(numbers) != want:
        raise ValueError(
            ngettext(
                "%(contract)s needs %(want)d number, not %(given)d",
                "%(contract)s needs %(want)d numbers, not %(given)d",
                want,
            )
            % {"contract": contract_name(contract), "want": want, "given": len(numbers)}
        )
    result: dict[str, Any]
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
            raise ValueError(_("a double is DOUBLERxDOUBLED, e.g. 2x1, with one ! if redoubled (2x1!), not %r") % word)
        doubler, doubled = _seat(found[1]), _seat(found[2])
        if doubler == doubled:  # (the rules say it too, of the seats: the table typed a word)
            raise ValueError(_("%r: the doubler and the doubled are two different players") % word)
        doubles.append([doubler, doubled, found[3] == "!"])
    return contract, result, doubles


_DOUBLE = re.compile(r"([0-9]+)[xX]([0-9]+)(!?)", re.ASCII)


def deal_line(contract: str, result: dict[str, Any], doubles: list[list[Any]]) -> str:
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


def _seat(word: str) -> int:
    n = number(word)
    if not 1 <= n <= 4:
        raise ValueError(_("seats are 1 to 4, not %d") % n)
    return n - 1


def rebuilt(rubber: barbu.Rubber, deals: list[Any]) -> barbu.Rubber:
    """The rubber with these deals, [(contract, result, doubles)], each
    checked again in order; ValueError names the first that no longer fits."""
    again = barbu.Rubber(rubber.first_dealer, rubber.names)
    for k, (contract, result, doubles) in enumerate(deals):
        try:
            again.add(contract, result, doubles)
        except ValueError as e:
            raise ValueError(_("deal %(number)d: %(problem)s") % {"number": k + 1, "problem": said(e)}) from None
    return again


def apply(rubber: barbu.Rubber, text: str) -> tuple[barbu.Rubber, Change]:
    """One line of the sheet: a deal, `undo`, or `fix N DEAL`. Returns the
    rubber (a new one for undo and fix) and the Change; ValueError (and the
    rubber unchanged) if the line cannot be right."""
    words = text.split(None, 2)
    if words[0].lower() == "undo":
        if len(words) > 1:
            raise ValueError(_("undo takes nothing after it (it removes the last deal)"))
        if not rubber.deals:
            raise ValueError(_("there is no deal to undo"))
        again = rebuilt(rubber, [(c, r, d) for _dealer, c, r, d, _scores in rubber.deals[:-1]])
        return again, Change("removed", len(rubber.deals) - 1, rubber)
    if words[0].lower() == "fix":
        if len(words) < 3:
            raise ValueError(_("fix N DEAL: the deal's number, then the deal as it should read"))
        n = number(words[1])
        if not 1 <= n <= len(rubber.deals):
            raise ValueError(
                _("there is no deal %(number)d to fix (deals 1 to %(last)d)") % {"number": n, "last": len(rubber.deals)}
            )
        contract, result, doubles = parse_deal(words[2])
        deals = [(c, r, d) for _dealer, c, r, d, _scores in rubber.deals]
        deals[n - 1] = (contract, result, doubles)
        return rebuilt(rubber, deals), Change("fixed", n - 1, rubber)
    contract, result, doubles = parse_deal(text)
    rubber.add(contract, result, doubles)
    return rubber, Change("entered", len(rubber.deals) - 1, None)


def parse_partners(text: str) -> list[list[int]]:
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


def pair_totals(rubber: barbu.Rubber, partners: Sequence[Sequence[int]]) -> list[int]:
    """Each pair's pooled total (barbu's partnership game keeps the score in common)."""
    t = rubber.totals()
    return [t[a] + t[b] for a, b in partners]


def record(rubber: barbu.Rubber, names: list[str], partners: Sequence[Sequence[int]] | None = None) -> dict[str, Any]:
    """What the database keeps of a rubber, and what export gives."""
    rec: dict[str, Any] = dict(rubber.to_record(), names=names)
    if partners:
        rec["partners"] = partners
        rec["pair_totals"] = pair_totals(rubber, partners)
    return rec


def partners_of(record: dict[str, Any]) -> list[list[int]] | None:
    """The pairs a stored record names (None: not a partnership game); ValueError if they are no pairs."""
    partners = record.get("partners") if isinstance(record, dict) else None
    if partners is None:
        return None
    try:
        return parse_partners(",".join("%d+%d" % (a + 1, b + 1) for a, b in partners))
    except (TypeError, ValueError):
        raise ValueError(_("its partners are not two pairs of seats")) from None


def from_kept(names: Any, record: Any) -> tuple[barbu.Rubber, list[list[int]] | None]:
    """(rubber, partners or None) from what is kept of one: its names and
    its record, every deal checked again; ValueError says what is wrong."""
    if not isinstance(names, list) or len(names) != barbu.PLAYERS or not all(isinstance(n, str) for n in names):
        raise ValueError(_("its names are not four names"))
    return barbu.load_rubber(record, names), partners_of(record)
