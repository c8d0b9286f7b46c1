# The complete distribution of show scores over all 12,994,800 hand+starter
# combinations (Lumetta; OEIS A066354), reproduced by cribrules.show.score.
from itertools import combinations

import pytest

from cribrules.show import score

PUBLISHED = [
    1009008,
    99792,
    2813796,
    505008,
    2855676,
    697508,
    1800268,
    751324,
    1137236,
    361224,
    388740,
    51680,
    317340,
    19656,
    90100,
    9168,
    58248,
    11196,
    2708,
    0,
    8068,
    2496,
    444,
    356,
    3680,
    0,
    0,
    0,
    76,
    4,
]


@pytest.mark.slow
def test_every_hand_and_starter_reproduces_the_published_distribution():
    counts = [0] * 30
    deck = range(52)
    for hand in combinations(deck, 4):
        for starter in deck:
            if starter not in hand:
                counts[score(hand, starter).total] += 1
    assert sum(counts) == 12994800
    assert counts == PUBLISHED
