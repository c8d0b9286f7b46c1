# A hall on the club's server (issue 67), against a real `cribboard serve`
# on PostgreSQL: 300 boards at a table's pace (a live state every 3 s on
# average, a game a minute), each a client that signs as a board does, one
# request a connection; beside them 600 page viewers holding their
# connections open (300 polling the projector's JSON every 2 s on one
# kept-alive connection, 300 watching its live stream), 64 slow readers (a
# phone sending pages it never reads) and 1,000 clients dripping a header
# byte every 2 s. Then the same 300 boards all from one address (a venue's
# NAT), the viewers beside them. For each: the boards' answers p50/p99, the
# failures, the games answered against the games stored, the viewers'
# answers and events, and the server's CPU and peak memory. Prints JSON.
#   python tests/bench/bench_hall.py [--quick]   (--quick: a tenth of the clients for 15 s)
import asyncio
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # tests/deadline.py
sys.path.insert(2, str(Path(__file__).resolve().parents[1] / "firmware"))  # rig
sys.path.insert(3, str(Path(__file__).resolve().parent))

import clubserver
from bench_clubserver import a_games_states, drip, peak_kb, slow_readers, tables_for
from clubload import cpu_seconds, stored
from pgserver import Cluster

PRESS_S = 3.0  # a live state every 3 s on average...
GAME_S = 60.0  # ...and a game a minute, at every board
NAT = "127.0.9.1"


async def poller(port, source, until, counts):
    """A page kept open: the projector's JSON every 2 s on one kept-alive connection (a new one if it goes)."""
    reader = writer = None
    while time.monotonic() < until:
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            writer.write(b"GET /api/night HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
            size = int(next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))[15:])
            await asyncio.wait_for(reader.readexactly(size), 30)
            counts["polls" if head[9:12] == b"200" else "polls_failed"] += 1
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, StopIteration):
            counts["polls_failed"] += 1
            if writer is not None:
                writer.close()
            reader = writer = None
        await asyncio.sleep(2.0)
    if writer is not None:
        writer.close()


async def watcher(port, source, until, counts):
    """A page watching the live stream: the events it was sent."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        writer.write(b"GET /api/night/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        while time.monotonic() < until:
            try:
                got = await asyncio.wait_for(reader.read(65536), max(0.1, until - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if not got:
                counts["streams_ended"] += 1
                break
            counts["events"] += got.count(b"data: ")
        writer.close()
    except OSError:
        counts["streams_failed"] += 1


async def room(port, viewers, slow, drips, seconds):
    """The room beside the boards: the viewers, the slow readers and the drippers, for seconds; their counts."""
    until = time.monotonic() + seconds
    counts = dict.fromkeys(("polls", "polls_failed", "events", "streams_ended", "streams_failed"), 0)
    sources = ["127.0.7.%d" % (n % 250 + 1) for n in range(viewers)]
    results = await asyncio.gather(
        *(poller(port, sources[n], until, counts) for n in range(0, viewers, 2)),
        *(watcher(port, sources[n], until, counts) for n in range(1, viewers, 2)),
        slow_readers(port, slow, seconds, "127.0.3.1"),
        drip(port, drips, seconds, "127.0.6.1"),
    )
    counts["drips_cut"] = results[-1]
    return counts


def room_process(port, viewers, slow, drips, seconds, out):
    """The room in a process of its own: its clients' own work is not in the boards' answer times."""
    out.put(asyncio.run(room(port, viewers, slow, drips, seconds)))


async def tables(port, pid, boards, seconds, nat):
    until = time.monotonic() + seconds
    peak = [0]

    async def sample():
        while time.monotonic() < until:
            await asyncio.sleep(1.0)
            peak[0] = max(peak[0], peak_kb(pid))

    cpu0 = cpu_seconds(pid)
    (took, failed), _ = await asyncio.gather(
        tables_for([port], boards, seconds, a_games_states(), 1, GAME_S, PRESS_S, NAT if nat else None, nat * boards),
        sample(),
    )
    cpu = cpu_seconds(pid) - cpu0
    times = sorted(t for _k, t in took)
    return {
        "boards_answered": len(took),
        "boards_failed": len(failed),
        "failures": sorted(set(failed))[:5],
        "p50_ms": round(1000 * statistics.median(times), 1) if times else None,
        "p99_ms": round(1000 * times[int(0.99 * len(times))], 1) if times else None,
        "games_answered": sum(1 for k, _t in took if k == "games"),
        "server_cpu_ms_per_board_request": round(1000 * cpu / max(1, len(took) + len(failed)), 2),
        "server_cpu_pct": round(100 * cpu / seconds, 1),
        "peak_rss_mb": round(peak[0] / 1024, 1),
    }


def hall(port, pid, boards, viewers, slow, drips, seconds, nat):
    """The boards (here) and the room (in a process of its own) side by side for seconds: the figures."""
    import multiprocessing

    out = multiprocessing.Queue()
    beside = multiprocessing.Process(target=room_process, args=(port, viewers, slow, drips, seconds + 2, out))
    beside.start()
    try:
        time.sleep(1.0)  # (the room fills first: the boards come into a full hall)
        figures = asyncio.run(tables(port, pid, boards, seconds, nat))
        figures.update(out.get(timeout=seconds + 120))
    finally:
        beside.join(30)
        if beside.is_alive():
            beside.kill()
    return figures


def main():
    quick = "--quick" in sys.argv
    boards, viewers, slow, drips, seconds = (30, 60, 8, 100, 15.0) if quick else (300, 600, 64, 1000, 60.0)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 16384), hard))  # a client a connection
    out = {"boards": boards, "viewers": viewers, "slow_readers": slow, "drippers": drips, "seconds": seconds}
    with tempfile.TemporaryDirectory():
        cluster = Cluster()
        try:
            db_url = cluster.new_database()
            for i in range(2 * boards):  # (the second run's boards are others: their games are new ones)
                clubserver.pair(db_url, "b%03d" % i)
            proc, url = clubserver.start(db_url)
            port = int(url.rstrip("/").rsplit(":", 1)[1])
            try:
                out["idle_rss_mb"] = round(peak_kb(proc.pid) / 1024, 1)
                for nat in (False, True):
                    before = len(stored(db_url))
                    figures = hall(port, proc.pid, boards, viewers, slow, drips, seconds, nat)
                    figures["games_stored"] = len(stored(db_url)) - before
                    out["one_address" if nat else "own_addresses"] = figures
            finally:
                clubserver.stop(proc)
        finally:
            cluster.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
