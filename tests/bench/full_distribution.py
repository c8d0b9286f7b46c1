# Time to score every one of the 12,994,800 hand+starter combinations with
# cribrules.show.score on one CPython core (budget: 60 s). Prints JSON.
import json
import sys
import time
from itertools import combinations

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "firmware/lib")

from cribrules.show import score


def main():
    counts = [0] * 30
    deck = range(52)
    t0 = time.perf_counter()
    for hand in combinations(deck, 4):
        for starter in deck:
            if starter not in hand:
                counts[score(hand, starter).total] += 1
    seconds = time.perf_counter() - t0
    print(json.dumps({"hands": sum(counts), "seconds": round(seconds, 2), "counts": counts}))


main()
