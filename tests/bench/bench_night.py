# A club night's speed (issue 45): the draw, a late arrival's re-draw, the
# filing of every game and the standings, for 200 players and 20 rounds, in
# process; and `cribboard night standings` end to end on SQLite with the
# night's 2,000 games stored. Prints one JSON object.
# Usage: python tests/bench/bench_night.py
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "firmware" / "lib"))
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT / "tests" / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "host"))

from bench_core import reference_us  # noqa: E402
from drawnplay import median_ms, played  # noqa: E402
from nightgames import record  # noqa: E402

from cribboard import store  # noqa: E402
from cribboard.event.tables import Tables  # noqa: E402
from cribboard.night import director, redraw, results, standings  # noqa: E402
from cribboard.night.draw import draw  # noqa: E402
from cribboard.night.scheme import Scheme  # noqa: E402

PLAYERS, ROUNDS, TABLES = 200, 20, 100


def main():
    numbers = list(range(1, PLAYERS + 1))  # the night's players (cribboard.event.roster), and their names
    names = {n: "Player %03d" % n for n in numbers}
    tables = ["board%03d" % i for i in range(TABLES)]
    d = draw(numbers, ROUNDS, tables, 1)
    draw_ms = median_ms(lambda: draw(numbers, ROUNDS, tables, 1))
    late_ms = median_ms(
        lambda: redraw.redraw(numbers + [PLAYERS + 1], ROUNDS // 2, tables + ["spare"], 1, d.rounds[: ROUNDS // 2])
    )
    games = played(d.rounds, names, random.Random(1))
    at = Tables.of(tables, [(t, 1, t) for t in tables])  # each table's board named as it is
    file_ms = median_ms(lambda: results.file(d.rounds, games, [], at, names))
    filed = results.file(d.rounds, games, [], at, names)
    assert not filed.flags
    table_ms = median_ms(lambda: standings.table(numbers, filed.results.values(), Scheme(), names.get))
    with tempfile.TemporaryDirectory() as tmp:
        url = str(Path(tmp) / "night.sqlite3")
        conn = store.connect(url, create=True)
        n = director.begin(conn, list(names.values()), ROUNDS, [(t, t) for t in tables], seed=1)
        seq = dict.fromkeys(tables, 0)
        by_board = {}
        for g in games:
            seq[g.board] += 1
            by_board.setdefault(g.board, []).append(
                (seq[g.board], record(seq[g.board], list(g.names), g.winner, min(g.scores)))
            )
        for board, batch in by_board.items():
            store.games.add(conn, board, "t", batch, "2026-11-27T20:00:00+00:00", {})
        conn.close()
        cmd = [sys.executable, "-m", "cribboard", "night", "standings", "--json", "--db", url]
        t0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        cli_s = time.perf_counter() - t0
        assert len(json.loads(done.stdout)) == PLAYERS
        assert n.rounds == ROUNDS
    print(
        json.dumps(
            {
                "players": PLAYERS,
                "rounds": ROUNDS,
                "games": len(games),
                "draw_ms": round(draw_ms, 2),
                "late_arrival_ms": round(late_ms, 2),
                "file_ms": round(file_ms, 2),
                "standings_ms": round(table_ms, 2),
                "cli_standings_s": round(cli_s, 2),
                "reference_us": reference_us(),
            }
        )
    )


if __name__ == "__main__":
    main()
