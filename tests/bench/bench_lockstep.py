# 300 boards in lockstep on the club's server (issue 67): each sends a live
# state a second, all in the same instant, for 20 s, against a real
# `cribboard serve` on SQLite (the default) or PostgreSQL (--pg): the
# answers p50/p99, the failures and why, the server's CPU a request. Prints
# JSON.  python tests/bench/bench_lockstep.py [--pg] [BOARDS]
import asyncio
import json
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "host"), str(HERE.parent), str(HERE.parents[1] / "firmware"), str(HERE)]

import clubserver  # noqa: E402
from bench_clubserver import a_state, boards_for  # noqa: E402
from clubload import cpu_seconds  # noqa: E402
from pgserver import Cluster  # noqa: E402

SECONDS = 20.0


def simulated(boards):
    """Run the simulated boards on uvloop where it is installed: 300 boards are 300 chips, and this one
    process's own CPU (on the same two cores as the server) is less of what the answers wait on."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(boards)
    return uvloop.run(boards)


def main():
    boards = int(next((a for a in sys.argv[1:] if a.isdigit()), "300"))
    body = json.dumps({"state": a_state()}).encode()
    cluster = Cluster() if "--pg" in sys.argv else None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            db_url = cluster.new_database() if cluster else str(Path(tmp) / "club.sqlite3")
            for i in range(boards):
                clubserver.pair(db_url, "b%03d" % i)
            proc, url = clubserver.start(db_url)
            try:
                cpu0 = cpu_seconds(proc.pid)
                took, failed = simulated(boards_for(int(url.rstrip("/").rsplit(":", 1)[1]), boards, SECONDS, body))
                cpu = cpu_seconds(proc.pid) - cpu0
            finally:
                clubserver.stop(proc)
    finally:
        if cluster is not None:
            cluster.stop()
    took.sort()
    print(
        json.dumps(
            {
                "database": "postgresql" if cluster else "sqlite",
                "boards": boards,
                "answered": len(took),
                "failed": len(failed),
                "why": Counter(failed).most_common(3),
                "p50_ms": round(1000 * statistics.median(took), 1) if took else None,
                "p99_ms": round(1000 * took[int(0.99 * len(took))], 1) if took else None,
                "cpu_ms_a_request": round(1000 * cpu / max(1, len(took) + len(failed)), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
