# Where the club's server's time goes, request kind by request kind (issue
# 56): the WSGI app called in this process, no HTTP in between, on a real
# PostgreSQL (or SQLite: --sqlite), each kind's requests timed (CPU of this
# process, per request) and profiled (cProfile, the functions that take the
# most of it, their own time and with what they call). The HTTP server's
# share is the difference between this and bench_clubserver's CPU per
# request of the whole process. Prints the figures as JSON, then the
# profiles as text on stderr. --census: instead, the live objects the
# server holds (gc's count, by type) after 30,000, 90,000 and 150,000 live
# reports of 300 boards, their states going on through a game, a page
# asking for the boards' scoreboards and LEDs: what grows, if anything.
#   python tests/bench/profile_clubserver.py [--sqlite] [--requests N] [--census]
import cProfile
import io
import json
import pstats
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1] / "host"))
sys.path.insert(1, str(HERE.parents[1]))  # tests/deadline.py
sys.path.insert(2, str(HERE.parents[1] / "firmware"))  # rig

from bench_clubserver import a_state  # noqa: E402
from clubserver import KEY, pair  # noqa: E402
from pgserver import Cluster  # noqa: E402
from test_records import good  # noqa: E402

from cribboard.club.app import ClubApp  # noqa: E402
from cribboard.club.protocol import Club, board_headers  # noqa: E402
from cribboard.seating import Seating  # noqa: E402
from cribboard.web.http import Request  # noqa: E402
from cribcore.clubwire import GAMES, LIVE  # noqa: E402

BOARDS = 20


def environ(path, board, counter, body):
    """A board's signed report as the front hands it to the app."""
    head = {name.lower(): value for name, value in board_headers(KEY.encode(), path, board, counter, body).items()}
    head.update({"host": "127.0.0.1:8120", "content-length": str(len(body))})
    return Request("POST", path, "", head, "127.1.0.%d" % (int(board[1:]) + 1), io.BytesIO(body).read)


def live_requests(n, first_count):
    body = json.dumps({"state": a_state()}).encode()
    return [environ(LIVE, "b%03d" % (i % BOARDS), "1.%d" % (first_count + i // BOARDS), body) for i in range(n)]


def games_requests(n, first_count):
    out = []
    for i in range(n):
        seq = first_count + i // BOARDS
        body = json.dumps(
            {"fw": "1.0", "boot": 3, "ticks": 5000, "period": 1 << 30, "records": [[seq, json.dumps(good(seq))]]}
        ).encode()
        out.append(environ(GAMES, "b%03d" % (i % BOARDS), "2.%d" % seq, body))
    return out


def measure(app, requests):
    """CPU seconds per request of this process, and the statuses answered."""
    statuses = {}
    cpu0 = time.process_time()
    for request in requests:
        status = str(app.answer(request).status)
        statuses[status] = statuses.get(status, 0) + 1
    return (time.process_time() - cpu0) / len(requests), statuses


def profiled(app, requests):
    profile = cProfile.Profile(time.process_time)  # CPU time: a wait for PostgreSQL costs the server none
    profile.enable()
    measure(app, requests)
    profile.disable()
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("tottime").print_stats(18)
    stats.sort_stats("cumulative").print_stats(30)
    return out.getvalue()


def census(app, boards):
    """The live objects (gc's, by type) after 100, 300 and 500 rounds of a live report from each board and
    a page's look (the scoreboards, one board's LEDs, the night), and the types whose count grew."""
    import gc
    from collections import Counter

    from bench_clubserver import a_games_states

    bodies = a_games_states()

    def page(path):
        where, _sep, query = path.partition("?")
        return Request("GET", where, query, {"host": "127.0.0.1:8120"}, "127.0.0.1")

    done = [0]

    def rounds(n):
        for _ in range(n):
            done[0] += 1
            r = done[0]
            measure(app, [environ(LIVE, "b%03d" % i, "1.%d" % r, bodies[(r + i) % len(bodies)]) for i in range(boards)])
            measure(app, [page("/api/state"), page("/api/leds?board=%d" % (r % boards)), page("/api/night")])

    counts = []
    for n in (100, 200, 200):
        rounds(n)
        gc.collect()
        counts.append(Counter(type(o).__name__ for o in gc.get_objects()))
    grew = {k: counts[2][k] - counts[1][k] for k in counts[2] if counts[2][k] > counts[1][k]}
    return {
        "reports": [boards * r for r in (100, 300, 500)],
        "objects": [sum(c.values()) for c in counts],
        "grew_last_200_rounds": dict(sorted(grew.items(), key=lambda kv: -kv[1])[:10]),
    }


def main():
    n = int(sys.argv[sys.argv.index("--requests") + 1]) if "--requests" in sys.argv else 2000
    with tempfile.TemporaryDirectory() as tmp:
        cluster = None
        if "--sqlite" in sys.argv:
            db_url = str(Path(tmp) / "club.sqlite3")
        else:
            cluster = Cluster()
            db_url = cluster.new_database()
        try:
            if "--census" in sys.argv:
                for i in range(300):
                    pair(db_url, "b%03d" % i)
                clock = iter(range(10**10))  # (50 looks a second: each board's report within its allowance)
                club = Club(db_url, Seating(), clock=lambda: next(clock) / 50, connections=8)
                club.follow()
                app = ClubApp(club)
                app.served = ("127.0.0.1", 8120)
                try:
                    print(json.dumps(census(app, 300)))
                finally:
                    club.close()
                return
            for i in range(BOARDS):
                pair(db_url, "b%03d" % i)
            # The clock: 10 ms a look, so a board's requests (one in BOARDS) come within its allowance and the
            # night's seating is read again every few dozen requests (a live server: once a second).
            ticks = iter(range(10**9))
            club = Club(db_url, Seating(), clock=lambda: next(ticks) / 100, connections=8)
            app = ClubApp(club)
            app.served = ("127.0.0.1", 8120)
            figures = {"engine": "sqlite" if cluster is None else "postgresql", "requests": n}
            try:
                count = 1
                for kind, make in (("live", live_requests), ("games", games_requests)):
                    measure(app, make(BOARDS * 5, count))  # warm: the pool's connections, the caches
                    count += 5
                    per, statuses = measure(app, make(n, count))
                    count += n // BOARDS + 1
                    figures["%s_cpu_ms_per_request" % kind] = round(per * 1000, 3)
                    figures["%s_statuses" % kind] = statuses
                    text = profiled(app, make(n, count))
                    count += n // BOARDS + 1
                    print("==== %s\n%s" % (kind, text), file=sys.stderr)
            finally:
                club.close()
        finally:
            if cluster is not None:
                cluster.stop()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
