# The discard advisor's speed on CPython (issue 18's budgets), with the
# reference loop in the same run. Prints one JSON object.
# Usage: python tests/bench/bench_discard.py
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "firmware" / "lib"))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_core import reference_us  # noqa: E402

from cribrules.cards import format_cards  # noqa: E402
from cribrules.discard import analyse, rank_table  # noqa: E402
from cribrules.show import score  # noqa: E402

HANDS = 1000
CLI = (
    [str(Path(sys.executable).with_name("cribboard"))]
    if shutil.which("cribboard", path=str(Path(sys.executable).parent))
    else [sys.executable, "-m", "cribboard"]
)


def sample(n, count, seed):
    state = seed
    out = []
    while len(out) < count:
        cards = []
        while len(cards) < n:
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            c = (state >> 8) % 52
            if c not in cards:
                cards.append(c)
        out.append(cards)
    return out


def per_hand_ms(hands, players):
    times = []
    for cards in hands:
        t0 = time.perf_counter_ns()
        analyse(cards, players)
        times.append((time.perf_counter_ns() - t0) / 1e6)
    return statistics.median(times), max(times)


def first_hand_ms():
    """In a fresh interpreter: import the core's advisor and answer one hand
    (the rank table built on the way), median of five processes."""
    code = (
        "import sys, time; sys.path.insert(0, %r); t0 = time.perf_counter_ns(); "
        "from cribrules.discard import analyse; analyse([0, 5, 10, 15, 20, 25]); "
        "print((time.perf_counter_ns() - t0) / 1e6)" % str(ROOT / "firmware" / "lib")
    )
    return statistics.median(
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(5)
    )


def wall(args, stdin=None, rounds=5):
    best = None
    for _ in range(rounds):
        t0 = time.perf_counter()
        subprocess.run(
            CLI + args,
            input=stdin,
            capture_output=True,
            text=True,
            check=stdin is None,
            env=dict(os.environ, NO_COLOR="1"),
        )
        t = time.perf_counter() - t0
        best = t if best is None or t < best else best
    return best


def naive_s(cards):
    """The naive way: show.score on every starter and every crib of every throw."""
    t0 = time.perf_counter()
    unseen = [c for c in range(52) if c not in cards]
    scorings = 0
    for thrown in combinations(cards, 2):
        kept = [c for c in cards if c not in thrown]
        for s in unseen:
            score(kept, s)
            scorings += 1
        for pair in combinations(unseen, 2):
            four = list(thrown) + list(pair)
            for s in unseen:
                if s not in pair:
                    score(four, s, True)
                    scorings += 1
    return time.perf_counter() - t0, scorings


def main():
    ref = reference_us()
    rank_table()
    six = sample(6, HANDS, 2026)
    five = sample(5, 300, 1124)
    med6, max6 = per_hand_ms(six, 2)
    med5, max5 = per_hand_ms(five, 3)
    first = first_hand_ms()
    hand = format_cards(six[0]).split()
    stdin = "".join(format_cards(h) + "\n" for h in six)
    thousand = wall(["discard", "--dealer"], stdin, rounds=3)
    discard_once = wall(["discard", "--dealer"] + hand)
    score_once = wall(["score"] + hand[:5])
    naive, scorings = naive_s(six[0])
    print(
        json.dumps(
            {
                "reference_us": ref,
                "median_ms": med6,
                "max_ms": max6,
                "five_median_ms": med5,
                "five_max_ms": max5,
                "first_hand_ms": first,
                "stdin_1000_s": thousand,
                "discard_cli_s": discard_once,
                "score_cli_s": score_once,
                "naive_s": naive,
                "naive_scorings": scorings,
                "hands": HANDS,
            }
        )
    )


if __name__ == "__main__":
    main()
