# The club's server as a season would load it (issue 41), against a real
# `cribboard serve` on PostgreSQL: 200 boards reporting live states for a
# minute (each a client here that signs as a board does, HTTP/1.0, one
# request a connection, a state a second): answer times at p50 and p99 as a
# board sees them, and the server's CPU time per request; its peak memory
# while 1,000 clients each drip a header byte every 2 s; and the time from
# PostgreSQL being back after a restart to the first board answered; and
# requests answered a second with the boards sending as fast as answered,
# on one `serve` process and on two on the same database (issue 42).
# Prints JSON.
import asyncio
import json
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # tests/deadline.py
sys.path.insert(2, str(Path(__file__).resolve().parents[1] / "firmware"))  # rig

import clubserver
from clubload import cpu_seconds
from pgserver import Cluster

from cribboard.club.protocol import RATE
from cribcore import clubwire as wire
from cribcore.clubwire import LIVE
from cribcore.signing import signature

KEY = clubserver.KEY


def start(db_url):
    return clubserver.start(db_url)


def a_state():
    from rig import Table

    t = Table()
    t.enter(0, 7)
    return json.loads(json.dumps(t.state()))


def request(port, board, counter, body, path=LIVE):
    """A board's report (live by default), byte for byte as its firmware sends it (cribcore.clubwire)."""
    sig = signature(KEY.encode(), "POST", path, board, counter, body)
    return wire.request("127.0.0.1:%d" % port, path, board, counter, sig, body)


def board_address(i):
    """Board i's own address, as each board on a club's WiFi has one (the server holds any one address to a
    few connections): 127.1.X.Y on the loopback."""
    return "127.1.%d.%d" % (i // 250, i % 250 + 1)


async def one_board(port, board, body, until, took, failed, boot=1, period=1.0):
    n = 0
    source = (board_address(int(board[1:])), 0)
    while time.monotonic() < until:
        n += 1
        began = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=source), 10)
            writer.write(request(port, board, "%d.%d" % (boot, n), body))
            answer = await asyncio.wait_for(reader.read(), 10)
            writer.close()
            if answer[9:12] == b"200":
                took.append(time.monotonic() - began)
            else:
                failed.append(answer[9:12].decode(errors="replace"))
        except (OSError, asyncio.TimeoutError) as e:
            failed.append(type(e).__name__)
        await asyncio.sleep(max(0.0, period - (time.monotonic() - began)))  # a state a second, by default


PRESS_S = 4.0  # a table's boards: a press every few seconds at random (a live report each)...
GAME_S = 17.5 * 60  # ...and a game every 15 to 20 minutes (its report too)


def a_game_report(seq):
    from test_records import good

    return json.dumps(
        {"fw": "1.0", "boot": 1, "ticks": 5000, "period": 1 << 30, "records": [[seq, json.dumps(good(seq))]]}
    ).encode()


async def one_table(port, board, body, until, took, failed, rng, boot, game_s, press_s=PRESS_S, source=None):
    """A board at a table's pace: a live report a press, the presses at random (press_s apart on average),
    and now and then a game's report; took: (kind, seconds) of each answered. body: a live report's, or a
    list of them sent in turn (a game's states as it goes on). source: the address it sends from (by
    default one of its own)."""
    n, games = 0, 0
    bodies = body if isinstance(body, list) else [body]
    source = (source or board_address(int(board[1:])), 0)
    await asyncio.sleep(rng.uniform(0, press_s))  # (the tables did not all start in the same second)
    while time.monotonic() < until:
        n += 1
        kind, data, path = "live", bodies[n % len(bodies)], LIVE
        if rng.random() < press_s / game_s:
            games += 1
            kind, data, path = "games", a_game_report(games), wire.GAMES
        began = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=source), 10)
            writer.write(request(port, board, "%d.%d" % (boot, n), data, path))
            answer = await asyncio.wait_for(reader.read(), 10)
            writer.close()
            if answer[9:12] == b"200":
                took.append((kind, time.monotonic() - began))
            else:
                failed.append(answer[9:12].decode(errors="replace"))
        except (OSError, asyncio.TimeoutError) as e:
            failed.append(type(e).__name__)
        await asyncio.sleep(rng.expovariate(1 / press_s))


async def tables_for(ports, boards, seconds, body, boot, game_s, press_s=PRESS_S, source=None, first=0):
    """boards at a table's pace, taking turns among the servers' ports: (took, failed) as one_table's. first:
    the first board's number (b000 by default)."""
    import random

    took, failed = [], []
    until = time.monotonic() + seconds
    rng = random.Random(56)
    await asyncio.gather(
        *(
            one_table(
                ports[i % len(ports)],
                "b%03d" % (first + i),
                body,
                until,
                took,
                failed,
                random.Random(rng.random()),
                boot,
                game_s,
                press_s,
                source,
            )
            for i in range(boards)
        )
    )
    return took, failed


def table_pace(ports, pids, boards, seconds, body, boot, game_s=GAME_S):
    """The figures of boards at a table's pace against these servers: answers p50/p99 (live and games
    reports), failures, the servers' CPU per request."""
    cpu0 = sum(cpu_seconds(pid) for pid in pids)
    took, failed = asyncio.run(tables_for(ports, boards, seconds, body, boot, game_s))
    cpu = sum(cpu_seconds(pid) for pid in pids) - cpu0
    times = sorted(t for _k, t in took)
    games = sorted(t for k, t in took if k == "games")
    return {
        "answered": len(took),
        "games_answered": len(games),
        "failed": len(failed),
        "p50_ms": round(1000 * statistics.median(times), 1) if times else None,
        "p99_ms": round(1000 * times[int(0.99 * len(times))], 1) if times else None,
        "games_p99_ms": round(1000 * games[int(0.99 * len(games))], 1) if games else None,
        "cpu_ms_per_request": round(1000 * cpu / max(1, len(took) + len(failed)), 2),
    }


SOAK_S = 600.0  # the memory's run: ten minutes of the tables at their pace, a projector page looking on


def a_games_states(presses=40):
    """The live reports of a board through a game: a state after each of its presses (points entered)."""
    from rig import Table

    t = Table()
    out = []
    for i in range(presses):
        t.enter(i % 2, 1 + i % 6)
        out.append(json.dumps({"state": json.loads(json.dumps(t.state()))}).encode())
    return out


async def a_page(port, until, boards):
    """A projector page and a phone looking on: the night's page every 2 s, the boards' scoreboards and one
    board's LEDs (each in turn) every second, as a browser asks (Host the server's own address)."""
    n = 0
    while time.monotonic() < until:
        n += 1
        paths = ["/api/state", "/api/leds?board=%d" % (n % boards)] + (["/api/night"] if n % 2 else [])
        for path in paths:
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
                writer.write(b"GET %s HTTP/1.0\r\nHost: 127.0.0.1:%d\r\n\r\n" % (path.encode(), port))
                await asyncio.wait_for(reader.read(), 10)
                writer.close()
            except (OSError, asyncio.TimeoutError):
                pass  # (the page's answers are not what is measured here)
        await asyncio.sleep(1.0)


def rss_kb(pid):
    for line in Path("/proc/%d/status" % pid).read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


def soak(port, pid, boards, seconds, bodies, boot):
    """The server's memory while the boards play at a table's pace for `seconds`, a page looking on: its
    resident size sampled 20 times (kB), and how much the last quarter's mean grew over the second's (the
    first quarter warms up: connections, caches, each board's first state)."""

    async def run():
        until = time.monotonic() + seconds
        samples = []

        async def sample():
            while time.monotonic() < until:
                await asyncio.sleep(seconds / 20)
                samples.append(rss_kb(pid))

        took, failed = (
            await asyncio.gather(
                tables_for([port], boards, seconds, bodies, boot, GAME_S), a_page(port, until, boards), sample()
            )
        )[0]
        return samples, took, failed

    samples, took, failed = asyncio.run(run())
    quarter = max(1, len(samples) // 4)
    second = samples[quarter : 2 * quarter]
    last = samples[-quarter:]
    growth = statistics.mean(last) - statistics.mean(second)
    return {
        "rss_kb": samples,
        "growth_kb": round(growth),
        "growth_pct": round(100 * growth / statistics.mean(second), 2),
        "answered": len(took),
        "failed": len(failed),
    }


async def boards_for(port, boards, seconds, body, boot=1):
    took, failed = [], []
    until = time.monotonic() + seconds
    await asyncio.gather(*(one_board(port, "b%03d" % i, body, until, took, failed, boot) for i in range(boards)))
    return took, failed


async def flood(ports, boards, seconds, body, boot):
    """Boards sending states as fast as the server lets a board (just under its allowance, club.RATE a
    second), taking turns among the servers' ports: requests answered a second, and the failures."""
    took, failed = [], []
    until = time.monotonic() + seconds
    period = 1.0 / (RATE - 1)
    await asyncio.gather(
        *(one_board(ports[i % len(ports)], "b%03d" % i, body, until, took, failed, boot, period) for i in range(boards))
    )
    return round(len(took) / seconds, 1), failed


def machine_busy():
    """(busy, all) jiffies of every core since boot (/proc/stat): what a run's share of the machine is read from."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return sum(fields) - idle, sum(fields)


def flooded(ports, pids, boards, seconds, body, boot):
    """flood, and what it cost: the servers' CPU per request, and how busy the machine's cores were (the
    boards' client and PostgreSQL run on them too: at 100% no more servers can answer more)."""
    cpu0 = sum(cpu_seconds(pid) for pid in pids)
    busy0, all0 = machine_busy()
    rate, failed = asyncio.run(flood(ports, boards, seconds, body, boot))
    busy1, all1 = machine_busy()
    cpu = sum(cpu_seconds(pid) for pid in pids) - cpu0
    return (
        rate,
        failed,
        {
            "cpu_ms_per_request": round(1000 * cpu / max(1.0, rate * seconds), 2),
            "machine_busy_pct": round(100 * (busy1 - busy0) / max(1, all1 - all0), 1),
            "servers_cpu_pct": round(100 * cpu / seconds, 1),
        },
    )


async def drip(port, clients, seconds, source="127.0.0.1"):
    """clients connections from source, each sending a header byte every 2 s; how many the server cut off
    (or turned away at once: one address holds a few)."""
    cut = 0

    async def one():
        nonlocal cut
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        except OSError:
            return
        until = time.monotonic() + seconds
        head = b"POST /board/v1/live HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port + b"X-Pad: " + b"a" * 4000
        try:
            while time.monotonic() < until and head:
                writer.write(head[:1])
                head = head[1:]
                await writer.drain()
                try:
                    if await asyncio.wait_for(reader.read(1024), 2.0) == b"" or reader.at_eof():
                        cut += 1
                        return
                except asyncio.TimeoutError:
                    pass
        except OSError:
            cut += 1
        finally:
            writer.close()

    await asyncio.gather(*(one() for _ in range(clients)))
    return cut


async def slow_readers(port, clients, seconds, source):
    """clients connections from source (a phone), each sending pipelined pages and reading none of them (as
    many as the server lets a connection send ahead: more, and it is cut off at once, club.places)."""
    from cribboard.club.places import PIPELINED

    pipelined = b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port * (PIPELINED + 1)

    async def one():
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        sock.bind((source, 0))
        sock.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
            _reader, writer = await asyncio.open_connection(sock=sock)
            writer.write(pipelined)
            await asyncio.sleep(seconds)
            writer.close()
        except OSError:
            sock.close()

    await asyncio.gather(*(one() for _ in range(clients)))


async def boards_beside_a_phone(port, boards, seconds, body, drips):
    """The boards' states while one phone holds 64 slow readers and another drips drips connections:
    (answered, failed) as boards_for."""
    boarded = boards_for(port, boards, seconds, body, boot=500)  # (after the first minute's, before the rest)
    phone = slow_readers(port, 64, seconds, "127.2.0.1")
    dripping = drip(port, drips, seconds, "127.3.0.1")
    took, failed = (await asyncio.gather(boarded, phone, dripping))[0]
    return took, failed


def floor_figure(db_url, boards, seconds, body):
    """The boards against the floor (floor_server.py: the same HTTP server and database, the HMAC, the
    JSON and the row, nothing else): its CPU time per request, and the answers' p99."""
    floor = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("floor_server.py")), db_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        port = int(floor.stdout.readline().strip().rstrip("/").rsplit(":", 1)[1])
        cpu0 = cpu_seconds(floor.pid)
        took, failed = asyncio.run(boards_for(port, boards, seconds, body, boot=900))
        cpu = cpu_seconds(floor.pid) - cpu0
    finally:
        floor.terminate()
        floor.wait(30)
    took.sort()
    return cpu / max(1, len(took) + len(failed)), took[int(0.99 * len(took))] if took else None, len(failed)


def sqlite_table_pace(tables, seconds, body):
    """table_pace against one serve on a SQLite file."""
    with tempfile.TemporaryDirectory() as tmp:
        db_url = str(Path(tmp) / "club.sqlite3")
        for i in range(tables):
            clubserver.pair(db_url, "b%03d" % i)
        proc, url = start(db_url)
        try:
            return table_pace([int(url.rstrip("/").rsplit(":", 1)[1])], [proc.pid], tables, seconds, body, boot=1)
        finally:
            proc.terminate()
            proc.wait(30)


def peak_kb(pid):
    for line in Path("/proc/%d/status" % pid).read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return -1


def restart_figure(cluster, port, body):
    """Seconds from PostgreSQL being back (pg_ctl -w returned) to the first board answered 200."""
    cluster.stop_server()
    cluster.start_server()
    back = time.monotonic()
    n = 1000
    while time.monotonic() - back < 120:
        n += 1
        took, _failed = asyncio.run(boards_for(port, 1, 0.001, body, boot=n))  # a new counter each try
        if took:
            return round(time.monotonic() - back, 2)
    return None


def main():
    quick = "--quick" in sys.argv  # a smoke run of the bench itself: 20 boards for 5 s, 50 drips for 12 s
    boards, seconds, drips, drip_s = (20, 5.0, 50, 12.0) if quick else (200, 60.0, 1000, 30.0)
    tables = 30 if quick else 300  # boards at a table's pace (issue 56), and in lockstep
    # Boards as fast as each is let: more than two servers answer (400 x 7 a second), so the figure is theirs.
    flooding = 40 if quick else 400
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))  # a client a connection
    body = json.dumps({"state": a_state()}).encode()
    with tempfile.TemporaryDirectory():
        cluster = Cluster()
        try:
            db_url = cluster.new_database()
            for i in range(max(boards, tables, flooding)):
                clubserver.pair(db_url, "b%03d" % i)
            proc, url = start(db_url)
            port = int(url.rstrip("/").rsplit(":", 1)[1])
            try:
                idle_kb = peak_kb(proc.pid)
                cpu0 = cpu_seconds(proc.pid)
                took, failed = asyncio.run(boards_for(port, boards, seconds, body))
                cpu = cpu_seconds(proc.pid) - cpu0
                floor_cpu, floor_p99, floor_failed = floor_figure(db_url, boards, seconds / 2, body)
                paced = table_pace([port], [proc.pid], tables, seconds, body, 2, 20.0 if quick else GAME_S)
                soaked = soak(port, proc.pid, tables, 40.0 if quick else SOAK_S, a_games_states(), boot=3)
                lock_took, lock_failed = asyncio.run(boards_for(port, tables, seconds / 2, body, boot=4))
                lock_took.sort()
                before_drip = peak_kb(proc.pid)
                cut = asyncio.run(drip(port, drips, drip_s))
                drip_kb = peak_kb(proc.pid)
                attacked, attacked_failed = asyncio.run(boards_beside_a_phone(port, boards, seconds / 2, body, drips))
                attacked.sort()
                restart_s = restart_figure(cluster, port, body)
                # Capacity: the boards as fast as answered, on one server, then on two on the same database.
                # (boot 10,000 on: past the counters the restart's tries took)
                rps_one, failed_one, cost_one = flooded([port], [proc.pid], flooding, seconds / 2, body, boot=10_000)
                other, other_url = start(db_url)
                try:
                    other_port = int(other_url.rstrip("/").rsplit(":", 1)[1])
                    rps_two, failed_two, cost_two = flooded(
                        [port, other_port], [proc.pid, other.pid], flooding, seconds / 2, body, boot=10_001
                    )
                    paced_two = table_pace(
                        [port, other_port], [proc.pid, other.pid], tables, seconds, body, boot=10_002
                    )
                finally:
                    other.terminate()
                    other.wait(30)
            finally:
                proc.terminate()
                proc.wait(30)
            paced_sqlite = sqlite_table_pace(tables, seconds, body)
        finally:
            cluster.stop()
    took.sort()
    print(
        json.dumps(
            {
                "server": "uvicorn",
                "boards": boards,
                "seconds": seconds,
                "drips": drips,
                "answered": len(took),
                "failed": len(failed),
                "failures": sorted(set(failed))[:5],
                "p50_ms": round(1000 * statistics.median(took), 1),
                "p99_ms": round(1000 * took[int(0.99 * len(took))], 1),
                "cpu_ms_per_request": round(1000 * cpu / max(1, len(took) + len(failed)), 2),
                "floor_cpu_ms_per_request": round(1000 * floor_cpu, 2),
                "cpu_ratio_to_floor": round(cpu / max(1, len(took) + len(failed)) / floor_cpu, 2),
                "floor_p99_ms": round(1000 * floor_p99, 1) if floor_p99 is not None else None,
                "floor_failed": floor_failed,
                "rss_peak_idle_kb": idle_kb,
                "rss_peak_200_boards_kb": before_drip,
                "rss_peak_1000_drips_kb": drip_kb,
                "drips_cut_within_30_s": cut,
                "beside_64_slow_readers_and_drips_answered": len(attacked),
                "beside_64_slow_readers_and_drips_failed": len(attacked_failed),
                "beside_64_slow_readers_and_drips_p99_ms": round(1000 * attacked[int(0.99 * len(attacked))], 1)
                if attacked
                else None,
                "serving_again_after_postgresql_restart_s": restart_s,
                "requests_per_s_1_server": rps_one,
                "requests_per_s_2_servers": rps_two,
                "flood_boards": flooding,
                "flood_cost_1_server": cost_one,
                "flood_cost_2_servers": cost_two,
                "flood_failed_1_server": len(failed_one),
                "flood_failed_2_servers": len(failed_two),
                "tables": tables,
                "press_s": PRESS_S,
                "game_min": GAME_S / 60,
                "table_pace_1_server": paced,
                "table_pace_2_servers": paced_two,
                "table_pace_sqlite": paced_sqlite,
                "soak_s": 40.0 if quick else SOAK_S,
                "soak": soaked,
                "lockstep_%d_boards_p99_ms" % tables: round(1000 * lock_took[int(0.99 * len(lock_took))], 1)
                if lock_took
                else None,
                "lockstep_%d_boards_answered" % tables: len(lock_took),
                "lockstep_%d_boards_failed" % tables: len(lock_failed),
            }
        )
    )


if __name__ == "__main__":
    main()
