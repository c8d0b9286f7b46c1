# Barbu (docs/cli.md, "The barbu sheet"): the seven contracts, doubles and redoubles,
# and a rubber of 28 deals with the checks that keep a score sheet honest.
# Players are seats 0..3; each deals seven times in a row, choosing a
# contract he has not played yet. Messages name the players (a Rubber's
# names, or "player 1" to "player 4", as a score sheet numbers them).

from cribcore import CoreError, const

_TYPE_CHECKING = const(0)  # typing's, folded away on MicroPython (cribcore.record says how)
if _TYPE_CHECKING:
    from collections.abc import Callable

PLAYERS = 4
CONTRACTS = ("barbu", "hearts", "queens", "tricks", "last2", "trumps", "domino")
TOTALS = {"barbu": -20, "hearts": -30, "queens": -24, "tricks": -26, "last2": -30, "trumps": 65, "domino": 65}
DOMINO = (45, 20, 10, -10)  # first out .. last
DEALS = PLAYERS * len(CONTRACTS)
MUST_DOUBLE_DEALER = 2

# The codes of cribcore.messages.
_COUNTS = const(601)
_ADDS_UP = const(602)
_SEAT = const(603)
_ACE = const(604)
_ORDER = const(605)
_CONTRACT = const(606)
_TOTAL = const(607)
_DOUBLES = const(608)
_DOUBLE = const(609)
_TWO_PLAYERS = const(610)
_REDOUBLED = const(611)
_DEALER_DOUBLES = const(612)
_TWO_BETS = const(613)
_FIRST_DEALER = const(614)
_RUBBER_OVER = const(615)
_PLAYED = const(616)
_DEAL_TOTAL = const(617)
_NOT_RECORD = const(618)
_NO_DEALS = const(619)
_NOT_DEAL = const(620)
_DEAL_N = const(621)
_PLAYER_N = const(622)


def _counts(result: object, key: str, total: int) -> list[int]:
    v = result.get(key) if isinstance(result, dict) else None
    if not isinstance(v, list) or len(v) != PLAYERS or any([type(n) is not int or n < 0 for n in v]):
        raise CoreError(_COUNTS, (key,))
    if sum(v) != total:
        raise CoreError(_ADDS_UP, (key, sum(v), total))
    return v


def _seat(result: object, key: str) -> int:
    v = result.get(key) if isinstance(result, dict) else None
    if type(v) is not int or not (0 <= v < PLAYERS):
        raise CoreError(_SEAT, (key,))
    return v


def contract_scores(contract: str, result: object) -> list[int]:
    """The four players' scores for one deal of a contract, before doubles.

    result by contract: barbu {"taker": seat}; hearts {"hearts": [4 counts,
    ace included], "ace": seat}; queens {"queens": [4 counts]}; tricks and
    trumps {"tricks": [4 counts]}; last2 {"twelfth": seat, "thirteenth":
    seat}; domino {"order": [seats, first out to last]}."""
    s = [0] * PLAYERS
    if contract == "barbu":
        s[_seat(result, "taker")] = -20
    elif contract == "hearts":
        hearts = _counts(result, "hearts", 13)
        ace = _seat(result, "ace")
        if hearts[ace] < 1:
            raise CoreError(_ACE, ())
        for p in range(PLAYERS):
            s[p] = -2 * hearts[p]
        s[ace] -= 4  # the ace is -6, not -2
    elif contract == "queens":
        q = _counts(result, "queens", 4)
        for p in range(PLAYERS):
            s[p] = -6 * q[p]
    elif contract == "tricks" or contract == "trumps":
        t = _counts(result, "tricks", 13)
        for p in range(PLAYERS):
            s[p] = (-2 if contract == "tricks" else 5) * t[p]
    elif contract == "last2":
        s[_seat(result, "twelfth")] -= 10
        s[_seat(result, "thirteenth")] -= 20
    elif contract == "domino":
        order = result.get("order") if isinstance(result, dict) else None
        if (
            not isinstance(order, list)
            or len(order) != PLAYERS
            or any([type(p) is not int for p in order])
            or sorted(order) != [0, 1, 2, 3]
        ):
            raise CoreError(_ORDER, ())
        for place in range(PLAYERS):
            s[order[place]] = DOMINO[place]
    else:
        raise CoreError(_CONTRACT, (contract, ", ".join(CONTRACTS)))
    if sum(s) != TOTALS[contract]:
        raise CoreError(_TOTAL, (contract, sum(s), TOTALS[contract]))
    return s


def player_name(seat: int) -> CoreError:
    return CoreError(_PLAYER_N, (seat + 1,))  # a phrase: said in the reader's language


def check_doubles(doubles: object, dealer: int, name: "Callable[[int], object]" = player_name) -> list[list]:
    """doubles: [doubler, doubled, redoubled] triples, as the rules have them
    spoken: once the dealer names the contract, each of the three others in
    turn doubles whom he likes (the dealer too); a doubled player may
    redouble the one who doubled him (the flag); the dealer doubles no one,
    he only redoubles. One bet per pair of players. ValueError says why."""
    if not isinstance(doubles, (list, tuple)):
        raise CoreError(_DOUBLES, (doubles,))
    seen = []  # type: list[tuple[int, int]]
    for d in doubles:
        if not isinstance(d, (list, tuple)) or len(d) != 3:
            raise CoreError(_DOUBLE, (d,))
        a, b, re = d
        if not (type(a) is int and type(b) is int and 0 <= a < PLAYERS and 0 <= b < PLAYERS) or a == b:
            raise CoreError(_TWO_PLAYERS, (d,))
        if re is not True and re is not False:
            raise CoreError(_REDOUBLED, (re,))
        if a == dealer:
            raise CoreError(_DEALER_DOUBLES, (name(a),))
        pair = (min(a, b), max(a, b))
        if pair in seen:
            raise CoreError(_TWO_BETS, (name(pair[0]), name(pair[1])))
        seen.append(pair)
    return [[d[0], d[1], d[2]] for d in doubles]


def settle(scores: list[int], doubles: list[list]) -> list[int]:
    """Apply the side bets: for each double the difference between the two
    players' results goes from the worse to the better (twice if redoubled)."""
    out = list(scores)
    for a, b, re in doubles:
        diff = scores[a] - scores[b]
        if re:
            diff *= 2
        out[a] += diff
        out[b] -= diff
    return out


class Rubber:
    """The score sheet of a rubber. Deal k is dealt by seat k // 7."""

    def __init__(self, first_dealer: int = 0, names: list[str] | None = None) -> None:
        if type(first_dealer) is not int or not (0 <= first_dealer < PLAYERS):
            raise CoreError(_FIRST_DEALER, ())
        self.first_dealer = first_dealer
        self.names = names  # the four players' names for messages, or None
        self.deals = []  # type: list[tuple[int, str, object, list[list], list[int]]]  # (dealer, contract, result, doubles, scores)

    def name(self, seat: int) -> object:
        return self.names[seat] if self.names else player_name(seat)

    def dealer(self) -> int:
        return (self.first_dealer + len(self.deals) // len(CONTRACTS)) % PLAYERS

    def remaining(self) -> list[str]:
        """The contracts the current dealer has still to choose from."""
        d = self.dealer()
        start = len(self.deals) - len(self.deals) % len(CONTRACTS)
        played = [deal[1] for deal in self.deals[start:] if deal[0] == d]
        return [c for c in CONTRACTS if c not in played]

    def over(self) -> bool:
        return len(self.deals) >= DEALS

    def add(self, contract: object, result: object, doubles: object = ()) -> list[int]:
        """Enter one deal; ValueError (and nothing entered) if it cannot be right."""
        if self.over():
            raise CoreError(_RUBBER_OVER, ())
        dealer = self.dealer()
        if not isinstance(contract, str) or contract not in CONTRACTS:
            raise CoreError(_CONTRACT, (contract, ", ".join(CONTRACTS)))
        if contract not in self.remaining():
            raise CoreError(_PLAYED, (self.name(dealer), contract))
        doubles = check_doubles(doubles, dealer, self.name)
        raw = contract_scores(contract, result)
        scores = settle(raw, doubles)
        if sum(scores) != TOTALS[contract]:
            raise CoreError(_DEAL_TOTAL, (sum(scores), TOTALS[contract]))
        # Each player must double the dealer twice in his round; a deal that
        # was played is recorded all the same (shortfalls() marks a miss).
        self.deals.append((dealer, contract, result, doubles, scores))
        return scores

    def doubled_dealer(self, k: int) -> list[int]:
        """How many times each player doubled the dealer of deal k in that
        dealer's round, up to and including deal k (the sheet's asterisks)."""
        start = k - k % len(CONTRACTS)
        count = [0] * PLAYERS
        for deal in self.deals[start : k + 1]:
            for a, b, _ in deal[3]:
                if b == deal[0]:
                    count[a] += 1
        return count

    def duty(self) -> list[tuple[int, int, int, int]]:
        """Where the current dealer's round stands with the rule that each
        other player doubles him twice: [(seat, times so far, times still
        needed, deals left in the round)] for every player still short."""
        k = len(self.deals)
        dealer = self.dealer()
        count = self.doubled_dealer(k - 1) if k % len(CONTRACTS) else [0] * PLAYERS
        left = len(CONTRACTS) - k % len(CONTRACTS)
        return [
            (p, count[p], MUST_DOUBLE_DEALER - count[p], left)
            for p in range(PLAYERS)
            if p != dealer and count[p] < MUST_DOUBLE_DEALER
        ]

    def shortfalls(self) -> list[tuple[int, int, int]]:
        """Every finished round in which a player doubled the dealer fewer
        than twice: [(dealer, seat, times)]. Recorded, not refused: the
        seed prescribes no penalty (docs/decisions.md)."""
        out = []  # type: list[tuple[int, int, int]]
        n = len(CONTRACTS)
        for end in range(n - 1, len(self.deals), n):
            dealer = self.deals[end][0]
            count = self.doubled_dealer(end)
            for p in range(PLAYERS):
                if p != dealer and count[p] < MUST_DOUBLE_DEALER:
                    out.append((dealer, p, count[p]))
        return out

    def totals(self) -> list[int]:
        t = [0] * PLAYERS
        for deal in self.deals:
            for p in range(PLAYERS):
                t[p] += deal[4][p]
        return t

    def round_totals(self, dealer: int) -> list[int]:
        """Each player's total over one dealer's seven contracts."""
        t = [0] * PLAYERS
        for deal in self.deals:
            if deal[0] == dealer:
                for p in range(PLAYERS):
                    t[p] += deal[4][p]
        return t

    def check(self) -> list[str]:
        """Problems a finished sheet would show ([] when all is well): every
        finished dealer's round and the whole rubber must sum to zero."""
        problems = []  # type: list[str]
        for k in range(0, len(self.deals) - len(self.deals) % len(CONTRACTS), len(CONTRACTS)):
            d = self.deals[k][0]
            s = sum(self.round_totals(d))
            if s:
                problems.append("player %d's round adds up to %d, not 0" % (d + 1, s))
        if self.over() and sum(self.totals()) != 0:
            problems.append("the rubber adds up to %d, not 0" % sum(self.totals()))
        return problems

    def to_record(self) -> dict:
        return {
            "v": 1,
            "game": "barbu",
            "first_dealer": self.first_dealer,
            "deals": [{"contract": c, "result": r, "doubles": d} for _, c, r, d, _ in self.deals],
            "totals": self.totals(),
            "shortfalls": [{"dealer": d, "player": p, "doubled": n} for d, p, n in self.shortfalls()],
        }


def load_rubber(record: object, names: list[str] | None = None) -> Rubber:
    """Rebuild a Rubber from its record, checking every deal again; ValueError
    (never another error) for anything it cannot be."""
    if not isinstance(record, dict) or record.get("game") != "barbu" or record.get("v") != 1:
        raise CoreError(_NOT_RECORD, ())
    r = Rubber(record.get("first_dealer", 0), names)
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise CoreError(_NO_DEALS, ())
    for i in range(len(deals)):
        d = deals[i]
        if not isinstance(d, dict):
            raise CoreError(_NOT_DEAL, (i + 1,))
        try:
            r.add(d.get("contract"), d.get("result"), d.get("doubles", []))
        except ValueError as e:
            raise CoreError(_DEAL_N, (i + 1, e)) from None
    return r
