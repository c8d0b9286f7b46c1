# A slow, obviously-right show scorer written straight from the rules
# (every subset, every pair, every run), to check the fast one against.

from cribrules.cards import JACK, rank, suit, value


def _subsets(cards):
    n = len(cards)
    for mask in range(1, 1 << n):
        yield [cards[i] for i in range(n) if mask >> i & 1]


def _is_run(ranks):
    s = sorted(ranks)
    for i in range(1, len(s)):
        if s[i] != s[i - 1] + 1:
            return False
    return True


def reference_score(hand, starter, crib=False):
    five = list(hand) + [starter]
    fifteens = pairs = 0
    runs_by_length = {3: 0, 4: 0, 5: 0}
    for sub in _subsets(five):
        if sum([value(c) for c in sub]) == 15:
            fifteens += 2
        if len(sub) == 2 and rank(sub[0]) == rank(sub[1]):
            pairs += 2
        if len(sub) >= 3 and _is_run([rank(c) for c in sub]):
            runs_by_length[len(sub)] += 1
    runs = 0
    for length in (5, 4, 3):
        if runs_by_length[length]:
            runs = length * runs_by_length[length]
            break
    flush = 0
    if len(set([suit(c) for c in hand])) == 1:
        if suit(starter) == suit(hand[0]):
            flush = 5
        elif not crib:
            flush = 4
    nobs = 0
    for c in hand:
        if rank(c) == JACK and suit(c) == suit(starter):
            nobs = 1
    return (fifteens + pairs + runs + flush + nobs, fifteens, pairs, runs, flush, nobs)
