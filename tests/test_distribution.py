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
    # A score is the same with the suits relabelled, so the hands beside a starter of one suit score as
    # those beside the same rank in each other suit: each rank's starter is scored in one suit (a rank's
    # in turn, so every suit is a starter's) with all 249,900 hands of the other 51 cards, and counted
    # four times. A quarter of the work, the same count.
    counts = [0] * 30
    for rank in range(13):
        starter = rank * 4 + rank % 4  # (cribrules.cards: a card is rank * 4 + suit)
        for hand in combinations([c for c in range(52) if c != starter], 4):
            counts[score(hand, starter).total] += 4
    assert sum(counts) == 12994800
    assert counts == PUBLISHED
