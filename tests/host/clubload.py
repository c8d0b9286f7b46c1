# A club evening under load, for the load test and `make bench`: simulated
# Pico Ws (each a MicroPython unix-port process with its real sockets),
# paired with one real `cribboard serve`, a finished 2-player game waiting
# on each. Their WiFi comes up at the same moment, so every game is sent at
# once; then their buttons are pressed round the tables for a while, so each
# sends its live state on every change. A proxy on the way times each
# exchange as a board sees it; the server's CPU time is read from /proc.
import json
import os
import secrets
import statistics
import time
import urllib.request
from pathlib import Path

from clubserver import Proxy, start, stop
from deadline import COMMAND_S, WAIT_S
from simboard import Board, fill_log

from cribapp.hostapi import keep_conf
from cribapp.store import FlashFiles
from cribboard import store
from cribboard.sim.simulator import board_ident


def cpu_seconds(pid):
    """User and system CPU time a process has used."""
    fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stored(db_url):
    """(board, seq) of every game the database holds, in order."""
    conn = store.connect(db_url)
    try:
        return [(r["board"], r["seq"]) for r in conn.all("SELECT board, seq FROM games ORDER BY board, seq")]
    finally:
        conn.close()


def page_scores(url):
    """{board: its scores} as the server's page shows them."""
    with urllib.request.urlopen(url + "api/state", timeout=WAIT_S) as r:
        return {b["board"]: b["scores"] for b in json.loads(r.read())["boards"]}


def live_kept(db_url, boards):
    """{board: the version of its live state in the database (club_live), or None}: whether a board's state
    reached any server (a page behind it then has lost it) or none (the board never got it through)."""
    conn = store.connect(db_url)
    try:
        versions = store.club.live_versions(conn)
    finally:
        conn.close()
    return {b: versions.get(b) for b in boards}


def _address(url):
    host, port = url[len("http://") :].rstrip("/").split(":")
    return host, int(port)


def run(db_url, tmp, boards=20, live_s=60.0, limit_s=COMMAND_S, servers=1, kill=False):
    """Figures of one evening: every game stored once is checked here. servers: that many `serve`
    processes on the database, behind a round-robin proxy; kill: each is SIGKILLed once (the first as the
    games are sent, the next as play goes on) and started again on its port. limit_s: a net, a whole
    command's: on a loaded machine a board whose first tries are turned away backs off up to a minute."""
    store.connect(db_url).close()
    behind = ("--trusted-proxy", "127.0.0.1")  # the proxy is the club's balancer: the boards all come through it
    procs, urls = zip(*[start(db_url, args=behind) for _ in range(servers)])
    procs, urls = list(procs), list(urls)
    proc = procs[0]  # (its CPU time is the figure, with one server)
    proxy = Proxy([_address(u) for u in urls])
    tables = []
    killed = []

    def kill_and_restart(i):
        procs[i].kill()  # SIGKILL: no clean stop, connections cut mid-request
        procs[i].wait(timeout=WAIT_S)
        procs[i].stdout.close()
        procs[i], again = start(db_url, port=_address(urls[i])[1], args=behind)
        assert again == urls[i]
        killed.append(i)

    set_up = time.monotonic()
    try:
        ids = []
        conn = store.connect(db_url)
        for n in range(boards):
            # Paired as `cribboard wifi` and `cribboard pair` leave a board (the firmware's own keep_conf), but
            # on its flash before it starts: twenty boards' link commands on a loaded machine are not the test.
            flash = Path(tmp) / ("board%d" % n)
            fill_log(flash, 1)
            key = secrets.token_hex(16)
            files = FlashFiles(str(flash))
            keep_conf(files, "wifi", {"ssid": "club", "password": "a password"})
            keep_conf(files, "club", {"server": proxy.url, "key": key})
            ids.append(board_ident(flash))
            store.club.pair(conn, ids[-1], key.encode(), "2026-11-26T20:00:00+00:00")  # before it can ask
            tables.append(Board(flash))
            tables[-1].sim.wifi(False)  # out of reach until all are up (its join ends 1.5 s after its first frame)
        conn.close()
        cpu0 = cpu_seconds(proc.pid)
        began = time.monotonic()
        for t in tables:
            t.sim.wifi(True)  # the club's WiFi comes up: every board sends its game
        if kill:
            kill_and_restart(0)  # as the games come in
        want = sorted((ident, 1) for ident in ids)
        while (have := stored(db_url)) != want:
            if time.monotonic() - began > limit_s:  # what the server said, to tell a slow board from a refusal
                raise AssertionError(
                    "not every game arrived within %d s (the boards took %.0f s to start): %s; the proxy had %d "
                    "connections, %d exchanges whole; the servers' logs: %s"
                    % (
                        limit_s,
                        began - set_up,
                        have,
                        proxy.connections,
                        len(proxy.took),
                        " | ".join(stop(p)[-1500:] or "(nothing)" for p in procs),
                    )
                )
            time.sleep(0.1)
        games_s = time.monotonic() - began
        games_took = [s for path, s in proxy.took if path.endswith("/games")]
        presses = 0
        live_began = time.monotonic()
        while time.monotonic() - live_began < live_s:  # play goes on: live states on every change
            for t in tables:
                t.sim.press("P1" if presses % 2 else "P2")
                presses += 1
            if kill and servers > 1 and len(killed) < 2:
                kill_and_restart(1)  # as play goes on
        # Every board's last change reaches every server's page (points still pending count 2 s after the
        # last press; another server's boards are read from the database every second).
        for page_url in urls:
            while page_scores(page_url) != {ident: t.sim.scoreboard()["scores"] for ident, t in zip(ids, tables)}:
                if time.monotonic() - live_began > live_s + limit_s:
                    shown = page_scores(page_url)
                    logs = [stop(p) for p in procs]  # (whole: the follower's notes may be early in them)
                    behind = {
                        ident: (shown.get(ident), t.sim.scoreboard()["scores"])
                        for ident, t in zip(ids, tables)
                        if shown.get(ident) != t.sim.scoreboard()["scores"]
                    }
                    raise AssertionError(
                        "the page %s is behind the boards (board: (page, board)): %s; their live states' versions in "
                        "the database: %s; what the followers said (reading the others' boards): %s; the proxy had "
                        "%d connections, %d exchanges whole, accept errors %s; the servers' logs: %s; those boards' "
                        "logs: %s"
                        % (
                            page_url,
                            behind,
                            live_kept(db_url, list(behind)),
                            [[ln for ln in log.splitlines() if "live states" in ln][-5:] for log in logs],
                            proxy.connections,
                            len(proxy.took),
                            proxy.accept_errors,
                            " | ".join(log[-1500:] or "(nothing)" for log in logs),
                            " | ".join(t.log_tail(300) for ident, t in zip(ids, tables) if ident in behind),
                        )
                    )
                time.sleep(0.1)
        cpu = cpu_seconds(proc.pid) - cpu0 if not killed else float("nan")
        assert stored(db_url) == want  # and nothing twice
        pages = [sorted(page_scores(u)) for u in urls]
        page = pages[0] if all(p == pages[0] for p in pages) else []
        took = [s for _path, s in proxy.took]
        return {
            "boards": boards,
            "on_the_page": len(page) if page == sorted(ids) else -1,
            "games_stored_once": len(want),
            "games_all_in_s": round(games_s, 2),
            "games_ack_median_ms": round(1000 * statistics.median(games_took), 1),
            "games_ack_worst_ms": round(1000 * max(games_took), 1),
            "live_s": live_s,
            "presses": presses,
            "requests": len(took),
            "ack_median_ms": round(1000 * statistics.median(took), 1),
            "ack_worst_ms": round(1000 * max(took), 1),
            "server_cpu_ms_per_request": round(1000 * cpu / len(took), 2),
            "servers": servers,
            "killed": len(killed),
        }
    finally:
        for t in tables:
            t.stop()
        proxy.close()
        for p in procs:
            stop(p)
