# A sanctioned tournament's speed (issue 58), for 512 entrants at 256 boards:
# the qualifying draw (22 games, two each against many), every qualifying
# game filed under its round and table, the qualifying standings, the cut,
# and each playoff round of the bracket as its winners come in; in process.
# Prints one JSON object.
# Usage: python tests/bench/bench_tournament.py
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "firmware" / "lib"))
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_core import reference_us  # noqa: E402
from drawnplay import median_ms, played  # noqa: E402

from cribboard.event.tables import Tables  # noqa: E402
from cribboard.night import results, standings  # noqa: E402
from cribboard.night.scheme import Scheme  # noqa: E402
from cribboard.tournament import cut, qualifying  # noqa: E402
from cribboard.tournament.bracket import Bracket  # noqa: E402

ENTRANTS, GAMES, BOARDS = 512, 22, 256


def main():
    rng = random.Random(1)
    entrants = list(range(1, ENTRANTS + 1))
    names = {n: "Entrant %03d" % n for n in entrants}
    tables = ["%d" % (i + 1) for i in range(BOARDS)]
    draw_ms = median_ms(lambda: qualifying.draw(entrants, GAMES, tables, 1, qualifying.TWO))
    rounds = qualifying.draw(entrants, GAMES, tables, 1, qualifying.TWO)
    games = played(rounds, names, rng, lambda table: "board-" + table)
    at = Tables.of(tables, [(t, 1, "board-" + t) for t in tables])
    file_ms = median_ms(lambda: results.file(rounds, games, [], at, names))
    filed = results.file(rounds, games, [], at, names)
    assert not filed.flags
    label = names.get
    standings_ms = median_ms(lambda: standings.table(entrants, filed.results.values(), Scheme(), label))
    rows = standings.table(entrants, filed.results.values(), Scheme(), label)
    cut_ms = median_ms(lambda: cut.cut(rows))
    the_cut = cut.cut(rows)
    bracket = Bracket(the_cut.qualifiers)
    winners = {}
    round_ms = []
    for number in range(1, bracket.rounds + 1):
        t0 = time.perf_counter()
        assert bracket.ready(number, winners)
        matches = bracket.round(number, winners)
        bracket.places(winners)
        round_ms.append((time.perf_counter() - t0) * 1000)
        for m in matches:
            if not m.bye:
                winners[(number, m.slot)] = rng.choice((m.high, m.low))
    print(
        json.dumps(
            {
                "entrants": ENTRANTS,
                "games": GAMES,
                "boards": BOARDS,
                "qualifying_games": len(games),
                "qualifiers": the_cut.qualifiers,
                "bracket": bracket.size,
                "byes": cut.byes(the_cut.qualifiers),
                "draw_ms": round(draw_ms, 2),
                "file_ms": round(file_ms, 2),
                "standings_ms": round(standings_ms, 2),
                "cut_ms": round(cut_ms, 3),
                "bracket_round_ms": [round(ms, 3) for ms in round_ms],
                "reference_us": reference_us(),
            }
        )
    )


if __name__ == "__main__":
    main()
