# Every table reporting from the players' phones (issue 70), against a real
# `cribboard serve` on PostgreSQL: a night of 512 players at 256 wooden
# tables, every player's phone on the room's live stream (/api/night/events,
# what their page follows); at each table, at a random moment, one phone
# enters the game and the other confirms it (POST /api/me/result, as the
# page sends it); beside them 256 boards at a table's pace (a live state
# every 3 s on average, a game a minute, each signed as a board signs). For
# each result: how long until each phone's stream carried it (goal: every
# phone within 2 s); the phones' writes answered and their times; the
# boards' answers p50/p99 (goal: p99 <= 100 ms); the server's CPU and peak
# memory. Prints JSON.
#   python tests/bench/bench_phones.py [--quick]   (--quick: 64 players, 32 boards, 20 s)
import asyncio
import json
import multiprocessing
import random
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
from bench_clubserver import a_games_states, peak_kb, tables_for
from clubload import cpu_seconds
from pgserver import Cluster

from cribboard import store
from cribboard.night import codes, director

PRESS_S, GAME_S = 3.0, 60.0


def night(db_url, players):
    """A night of players at players // 2 wooden tables, one round; each player's code by name."""
    db = store.connect(db_url)
    try:
        names = ["P%03d" % k for k in range(1, players + 1)]
        n = director.begin(db, names, 1, [(str(t), None) for t in range(1, players // 2 + 1)], seed=70)
        held = codes.given(db, n)
        pairs = [(n.label(g.first), n.label(g.second)) for g in n.drawn[0] if g.second is not None]
        return {n.label(k): c for k, c in held.items()}, pairs
    finally:
        db.close()


async def post(port, code, scores, source):
    """A phone's word, as its page sends it: (status, seconds to the answer)."""
    body = json.dumps({"code": code, "key": "%032x" % random.getrandbits(128), "scores": scores}).encode()
    begun = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        writer.write(
            b"POST /api/me/result HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nOrigin: http://127.0.0.1:%d\r\n"
            b"Sec-Fetch-Site: same-origin\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
            b"Connection: close\r\n\r\n%s" % (port, port, len(body), body)
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        await reader.read()
        return int(head[9:12]), time.monotonic() - begun
    finally:
        writer.close()


async def table(port, pair, codes_of, at, confirmed, writes, source):
    """One wooden table's game: entered at `at` by the first player's phone (who won), confirmed by the
    other's; when it was confirmed, by the winner's name."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    winner, loser = pair
    answered = []
    for who, scores in ((winner, [121, 95]), (loser, [95, 121])):
        try:
            status, took = await post(port, codes_of[who], scores, source)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
            status, took = 0, 0.0
        writes.append((status, took))
        answered.append(status)
    if answered == [200, 200]:
        confirmed[winner] = time.monotonic()


async def watcher(port, source, until, parsed, seen, ended):
    """A phone following the room's stream: when each winner first showed in what it was sent."""
    mine = {}
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    except OSError:
        ended.append("connect")
        return
    writer.write(b"GET /api/night/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
    buf = b""
    try:
        while time.monotonic() < until:
            try:
                got = await asyncio.wait_for(reader.read(1 << 20), max(0.1, until - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if not got:
                ended.append("closed")
                break
            now = time.monotonic()
            buf += got
            *events, buf = buf.split(b"\n\n")
            for event in events:
                data = event.partition(b"data: ")[2]
                if not data:
                    continue
                key = hash(data)
                if key not in parsed:  # (every phone is sent the same data: read once)
                    rows = json.loads(data).get("games") or []
                    parsed[key] = {g["winner"] for g in rows if g.get("winner")}
                for w in parsed[key]:
                    mine.setdefault(w, now)
    finally:
        writer.close()
        seen.append(mine)


async def phones(port, pairs, codes_of, seconds):
    until = time.monotonic() + seconds
    parsed, seen, ended, confirmed, writes = {}, [], [], {}, []
    sources = ["127.0.7.%d" % (n % 250 + 1) for n in range(len(codes_of))]
    rng = random.Random(70)
    start = time.monotonic() + 3.0  # (the phones are on the stream first)
    await asyncio.gather(
        *(watcher(port, sources[n], until, parsed, seen, ended) for n in range(len(codes_of))),
        *(
            table(port, pair, codes_of, start + rng.uniform(0, seconds - 8.0), confirmed, writes, sources[k % 250])
            for k, pair in enumerate(pairs)
        ),
    )
    lags = sorted(mine[w] - t for mine in seen for w, t in confirmed.items() if w in mine)
    missing = sum(1 for mine in seen for w in confirmed if w not in mine)
    times = sorted(t for s, t in writes if s == 200)
    return {
        "results_confirmed": len(confirmed),
        "phone_writes_answered": sum(1 for s, _t in writes if s == 200),
        "phone_writes_failed": sum(1 for s, _t in writes if s != 200),
        "phone_write_p50_ms": round(1000 * statistics.median(times), 1) if times else None,
        "phone_write_p99_ms": round(1000 * times[int(0.99 * len(times))], 1) if times else None,
        "update_p50_s": round(statistics.median(lags), 2) if lags else None,
        "update_p99_s": round(lags[int(0.99 * len(lags))], 2) if lags else None,
        "update_max_s": round(lags[-1], 2) if lags else None,
        "updates_missing": missing,
        "streams_ended": len(ended),
        "distinct_pushes": len(parsed),
    }


def phones_process(port, pairs, codes_of, seconds, out):
    """The phones in a process of their own: their work is not in the boards' answer times."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 16384), hard))
    out.put(asyncio.run(phones(port, pairs, codes_of, seconds)))


async def boards_beside(port, pid, boards, seconds):
    peak = [0]
    until = time.monotonic() + seconds

    async def sample():
        while time.monotonic() < until:
            await asyncio.sleep(1.0)
            peak[0] = max(peak[0], peak_kb(pid))

    cpu0 = cpu_seconds(pid)
    (took, failed), _ = await asyncio.gather(
        tables_for([port], boards, seconds, a_games_states(), 1, GAME_S, PRESS_S), sample()
    )
    cpu = cpu_seconds(pid) - cpu0
    times = sorted(t for _k, t in took)
    return {
        "boards_answered": len(took),
        "boards_failed": len(failed),
        "board_p50_ms": round(1000 * statistics.median(times), 1) if times else None,
        "board_p99_ms": round(1000 * times[int(0.99 * len(times))], 1) if times else None,
        "server_cpu_pct": round(100 * cpu / seconds, 1),
        "peak_rss_mb": round(peak[0] / 1024, 1),
    }


def main():
    quick = "--quick" in sys.argv
    players, boards, seconds = (64, 32, 20.0) if quick else (512, 256, 60.0)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 16384), hard))
    out = {"players": players, "wooden_tables": players // 2, "boards": boards, "seconds": seconds}
    with tempfile.TemporaryDirectory():
        cluster = Cluster()
        try:
            db_url = cluster.new_database()
            for i in range(boards):
                clubserver.pair(db_url, "b%03d" % i)
            codes_of, pairs = night(db_url, players)
            proc, url = clubserver.start(db_url)
            port = int(url.rstrip("/").rsplit(":", 1)[1])
            try:
                queue = multiprocessing.Queue()
                beside = multiprocessing.Process(target=phones_process, args=(port, pairs, codes_of, seconds, queue))
                beside.start()
                try:
                    time.sleep(1.0)  # (the phones come first: the boards report into a room already watching)
                    out.update(asyncio.run(boards_beside(port, proc.pid, boards, seconds)))
                    out.update(queue.get(timeout=seconds + 120))
                finally:
                    beside.join(30)
                    if beside.is_alive():
                        beside.kill()
            finally:
                clubserver.stop(proc)
        finally:
            cluster.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
