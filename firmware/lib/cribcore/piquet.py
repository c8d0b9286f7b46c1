# Rubicon piquet, scored on a cribbage board (RULES.md section 2): one deal
# from the two hands held and the tricks' winners, and the partie of six
# deals (eight on a tie) with its rubicon result.
from collections import namedtuple

from cribcore.cards import ACE, JACK, KING, check_distinct, format_card

ELDER = 0  # leads the first trick
YOUNGER = 1  # the dealer

# Piquet's ranks, low to high: 7 8 9 10 J Q K A (card rank indices).
ORDER = (6, 7, 8, 9, 10, 11, 12, 0)
_HIGH = {}
for _i in range(len(ORDER)):
    _HIGH[ORDER[_i]] = _i
SET_RANKS = (9, 10, 11, 12, 0)  # 10 J Q K A: the only ranks that make sets
SEQUENCE_POINTS = (0, 0, 0, 3, 4, 15, 16, 17, 18)  # by length
DEALS = 6
EXTRA_DEALS = 2
RUBICON = 100

Deal = namedtuple("Deal", ("scores", "blanche", "point", "sequences", "sets", "repique", "pique",
                           "lead", "tricks", "cards"))


def _pip(r):
    if r == ACE:
        return 11
    return 10 if r >= 9 else r + 1


def check_hands(elder, younger):
    for who, hand in (("elder", elder), ("younger", younger)):
        if len(hand) != 12:
            raise ValueError("%s holds %d cards; a piquet hand is 12" % (who, len(hand)))
        for c in hand:
            if c >> 2 not in _HIGH:
                raise ValueError("%s is not in a piquet deck (7 to ace)" % format_card(c))
    check_distinct(list(elder) + list(younger))


def point_of(hand):
    """(length, pip total) of the longest suit; the pip total breaks ties."""
    best = (0, 0)
    for s in range(4):
        cards = [c for c in hand if c & 3 == s]
        key = (len(cards), sum([_pip(c >> 2) for c in cards]))
        if key > best:
            best = key
    return best


def sequences_of(hand):
    """[(length, high card order)] of every run of 3 or more in a suit."""
    out = []
    for s in range(4):
        have = [False] * len(ORDER)
        for c in hand:
            if c & 3 == s:
                have[_HIGH[c >> 2]] = True
        run = 0
        for i in range(len(ORDER) + 1):
            if i < len(ORDER) and have[i]:
                run += 1
            else:
                if run >= 3:
                    out.append((run, i - 1))
                run = 0
    return out


def sets_of(hand):
    """[(count, rank order)] of every trio or quatorze, ten or higher."""
    out = []
    for r in SET_RANKS:
        n = len([c for c in hand if c >> 2 == r])
        if n >= 3:
            out.append((n, _HIGH[r]))
    return out


def _best(a, b):
    """0 if a is better, 1 if b is, None on a tie or when neither has any."""
    if not a and not b:
        return None
    ka = max(a) if a else (0, -1)
    kb = max(b) if b else (0, -1)
    if ka == kb:
        return None
    return 0 if ka > kb else 1


def score_deal(elder, younger, winners):
    """Score one deal. elder and younger are the 12 cards each holds when
    declaring; winners lists who won each of the 12 tricks (ELDER or YOUNGER).
    Returns a Deal with per-player scores and how each part went."""
    check_hands(elder, younger)
    if len(winners) != 12 or any([w not in (ELDER, YOUNGER) for w in winners]):
        raise ValueError("give the winner (0 elder, 1 younger) of each of the 12 tricks")
    hands = (elder, younger)
    blanche = [10 if not [c for c in h if JACK <= c >> 2 <= KING] else 0 for h in hands]
    points = [point_of(h) for h in hands]
    p = _best([points[0]] if points[0][0] else [], [points[1]] if points[1][0] else [])
    point = [0, 0]
    if p is not None:
        point[p] = points[p][0]
    seqs = [sequences_of(h) for h in hands]
    s = _best(seqs[0], seqs[1])
    sequences = [0, 0]
    if s is not None:
        sequences[s] = sum([SEQUENCE_POINTS[min(n, 8)] for n, _ in seqs[s]])
    sts = [sets_of(h) for h in hands]
    t = _best(sts[0], sts[1])
    sets = [0, 0]
    if t is not None:
        sets[t] = sum([14 if n == 4 else 3 for n, _ in sts[t]])

    totals = [0, 0]
    repique = [0, 0]
    # Repique: 30 from combinations, counted in order, before the other scores.
    for part in (blanche, point, sequences, sets):
        for who in (ELDER, YOUNGER):
            totals[who] += part[who]
        for who in (ELDER, YOUNGER):
            if not repique[0] and not repique[1] and totals[who] >= 30 and totals[1 - who] == 0:
                repique[who] = 60
    for who in (ELDER, YOUNGER):
        totals[who] += repique[who]

    # The play: 1 for leading the first trick; each trick 1 to its leader or 2.
    pique = [0, 0]
    lead = [1, 0]
    tricks = [0, 0]
    won = [0, 0]

    def add(who, n):
        totals[who] += n
        if not any(repique) and not any(pique) and totals[who] >= 30 and totals[1 - who] == 0:
            pique[who] = 30
            totals[who] += 30

    add(ELDER, 1)
    leader = ELDER
    for w in winners:
        won[w] += 1
        n = 1 if w == leader else 2
        tricks[w] += n
        add(w, n)
        leader = w
    cards = [0, 0]
    for who in (ELDER, YOUNGER):
        if won[who] == 12:
            cards[who] = 40
        elif won[who] >= 7:
            cards[who] = 10
        totals[who] += cards[who]
    return Deal(totals, blanche, point, sequences, sets, repique, pique, lead, tricks, cards)


def rubicon(totals):
    """(winner, points) of a finished partie, or None on a tie."""
    a, b = totals
    if a == b:
        return None
    w = 0 if a > b else 1
    loser = totals[1 - w]
    if loser < RUBICON:
        return (w, RUBICON + a + b)  # rubiconed
    return (w, RUBICON + abs(a - b))


class Partie:
    """Six deals, elder and younger alternating, two more on a tie. Deals
    are entered as totals per player (from score_deal or a table's own
    count); players are 0 and 1, and player 0 is elder in the first deal."""

    def __init__(self):
        self.deals = []

    def elder(self):
        """The player who is elder in the next deal."""
        return len(self.deals) % 2

    def add(self, scores):
        if self.over():
            raise ValueError("the partie is over")
        if len(scores) != 2 or any([not isinstance(s, int) or s < 0 or s > 300 for s in scores]):
            raise ValueError("a deal scores 0 to 300 points for each player, not %r" % (scores,))
        self.deals.append((scores[0], scores[1]))

    def totals(self):
        t = [0, 0]
        for a, b in self.deals:
            t[0] += a
            t[1] += b
        return t

    def length(self):
        n = len(self.deals)
        if n >= DEALS:
            first = [0, 0]
            for a, b in self.deals[:DEALS]:
                first[0] += a
                first[1] += b
            if first[0] == first[1]:
                return DEALS + EXTRA_DEALS
        return DEALS

    def over(self):
        return len(self.deals) >= self.length()

    def result(self):
        """(winner, points) once over (None if still tied after 8 deals)."""
        if not self.over():
            return None
        return rubicon(self.totals())


# --- the partie on the board: a ledger like a cribbage game's ----------------
from cribcore.game import DEAL, POINTS, Game  # noqa: E402

MAX_ENTRY = 250  # a repique with capot and all the rest stays under this


class PiquetGame(Game):
    """A partie as a ledger of entries and deal ends, with undo and redo.
    Totals run past 120; the partie ends with its sixth deal (eighth on a
    tie). The dealer (younger) alternates with every deal."""

    def __init__(self, dealer=0):
        if dealer not in (0, 1):
            raise ValueError("piquet is for two players: the dealer is 0 or 1")
        Game.__init__(self, 2, 121, dealer)
        self.target = 0  # no target: the partie is a number of deals

    def add(self, seat, points, kind=POINTS, ticks=0):
        return Game.add(self, seat, points, kind, ticks)

    def check(self, seat, points, kind=POINTS):
        if not isinstance(seat, int) or not (0 <= seat < 2):
            raise ValueError("piquet is for two players: seat 0 or 1, not %r" % (seat,))
        if kind not in (POINTS, DEAL):
            raise ValueError("a piquet entry is points or the end of a deal, not %r" % (kind,))
        if self.over():
            raise ValueError("the partie is over")
        if kind == DEAL:
            if points != 0:
                raise ValueError("ending a deal scores nothing")
            return
        if not isinstance(points, int) or points < 1 or points > MAX_ENTRY:
            raise ValueError("a piquet entry is 1 to %d points, not %r" % (MAX_ENTRY, points))

    def _apply(self, event):
        seat, points, kind, _ = event
        if kind == DEAL:
            self._deals += 1
            t = self._totals
            if self._deals >= DEALS + EXTRA_DEALS or (self._deals == DEALS and t[0] != t[1]):
                self._winner = -1 if t[0] == t[1] else (0 if t[0] > t[1] else 1)
            return
        self._backs[seat] = self._totals[seat]
        self._totals[seat] += points

    def score(self, side):
        self._derive()
        return self._totals[side]

    def winner(self):
        self._derive()
        return None if self._winner is None or self._winner < 0 else self._winner

    def over(self):
        self._derive()
        return self._winner is not None

    def deal_number(self):
        """1 for the first deal ... (the one being played, or the last one)."""
        self._derive()
        return self._deals + (0 if self._winner is not None else 1)

    def skunk(self):
        return 0 if self.winner() is not None else None

    def rubicon(self):
        """(winner, points) once over, else None."""
        return rubicon(self.scores()) if self.over() else None

    def race(self):
        totals = [0, 0]
        out = []
        for i in range(self.cursor):
            seat, points, kind, _ = self.events[i]
            if kind != DEAL:
                totals[seat] += points
                out.append(list(totals))
        return out


class PiquetMatch:
    """One partie in the shape of a cribbage Match, so the board's app and
    its records treat both alike."""

    kind = "piquet"
    sides = 2
    players = 2
    target = 0
    scheme = "rubicon"
    best_of = 1
    first_to = None
    need = 1

    def __init__(self, dealer=0):
        self.games = [PiquetGame(dealer)]
        self.closed = []

    @property
    def game(self):
        return self.games[-1]

    def result(self, index):
        if index != 0:
            raise ValueError("a piquet match is one partie")
        r = self.game.rubicon()
        return None if r is None else (r[0], 0, r[1])

    def held(self, index):
        if index != 0:
            raise ValueError("a piquet match is one partie")
        return self.game

    def standings(self):
        wins = [0, 0]
        points = [0, 0]
        r = self.result(0)
        if r is not None:
            wins[r[0]] = 1
            points[r[0]] = r[2]
        return wins, points, None

    def winner(self):
        r = self.result(0)
        return None if r is None else r[0]

    def over(self):
        return self.game.over()

    def next_dealer(self):
        return 1 - self.game.first_dealer

    def next_game(self):
        raise ValueError("a piquet match is one partie: start a new one")

    def restart_game(self):
        self.games[-1] = PiquetGame(self.game.first_dealer)

    def forget_closed(self):
        pass
