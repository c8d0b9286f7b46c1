# Core benchmarks that run on CPython and on MicroPython alike. Prints one
# JSON object. Timings are also given in reference-loop units (the time of
# 100,000 integer additions on the same interpreter in the same run), which
# carry over between machines.
# Usage: python bench_core.py LIB_DIR   |   micropython bench_core.py LIB_DIR
import gc
import json
import sys
import time

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "firmware/lib")

from cribrules.show import score

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython: a benchmark-only stand-in, not product code

    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


HANDS = 1000
ROUNDS = 5


def sample_hands(n):
    state = 12345
    out = []
    while len(out) < n:
        cards = []
        while len(cards) < 5:
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            c = (state >> 8) % 52
            if c not in cards:
                cards.append(c)
        out.append((tuple(cards[:4]), cards[4]))
    return out


def reference_us():
    """Best of five: 100,000 integer additions."""
    best = None
    for _ in range(5):
        t0 = ticks_us()
        x = 0
        for i in range(100000):
            x += i
        t = ticks_diff(ticks_us(), t0)
        best = t if best is None or t < best else best
    return best


def scoring_us(hands):
    """Best of ROUNDS: microseconds to score every hand once."""
    best = None
    for _ in range(ROUNDS):
        t0 = ticks_us()
        for hand, starter in hands:
            score(hand, starter)
        t = ticks_diff(ticks_us(), t0)
        best = t if best is None or t < best else best
    return best


def heap_per_score(hands):
    """Bytes of heap one score() call takes (GC off, so nothing is freed):
    the most any hand needs and the mean."""
    if not hasattr(gc, "mem_alloc"):
        return None, None
    most = total = 0
    for hand, starter in hands[:500]:
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        score(hand, starter)
        used = gc.mem_alloc() - before
        gc.enable()
        total += used
        most = used if used > most else most
    return most, total // 500


def main():
    hands = sample_hands(HANDS)
    ref = reference_us()
    t = scoring_us(hands)
    most, mean = heap_per_score(hands)
    print(
        json.dumps(
            {
                "runtime": sys.implementation.name,
                "reference_us": ref,
                "hands": HANDS,
                "scoring_us": t,
                "hands_per_s": HANDS * 1000000 // t,
                "us_per_hand": t / HANDS,
                "ref_units_per_1000_hands": (t * 1000 / HANDS) / ref,
                "heap_bytes_max": most,
                "heap_bytes_mean": mean,
            }
        )
    )


if __name__ == "__main__":
    main()
