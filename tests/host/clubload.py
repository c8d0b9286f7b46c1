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
from deadline import WAIT_S
from simboard import Board, fill_log

from cribapp.hostface import keep_conf
from cribapp.store import FlashFiles
from cribboard import store
from cribboard.simulator import board_ident


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


def run(db_url, tmp, boards=20, live_s=60.0, limit_s=120.0):
    """Figures of one evening: every game stored once is checked here."""
    store.connect(db_url).close()
    proc, url = start(db_url)
    host, port = url[len("http://"):].rstrip("/").split(":")
    proxy = Proxy((host, int(port)))
    tables = []
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
        want = sorted((ident, 1) for ident in ids)
        while stored(db_url) != want:
            if time.monotonic() - began > limit_s:  # what the server said, to tell a slow board from a refusal
                raise AssertionError(
                    "not every game arrived within %d s (the boards took %.0f s to start): %s; the proxy had %d "
                    "connections, %d exchanges whole; the server's log: %s"
                    % (limit_s, began - set_up, stored(db_url), proxy.connections, len(proxy.took),
                       stop(proc)[-3000:] or "(nothing)"))
            time.sleep(0.1)
        games_s = time.monotonic() - began
        games_took = [s for path, s in proxy.took if path.endswith("/games")]
        presses = 0
        live_began = time.monotonic()
        while time.monotonic() - live_began < live_s:  # play goes on: live states on every change
            for t in tables:
                t.sim.press("P1" if presses % 2 else "P2")
                presses += 1
        # Every board's last change reaches the page (points still pending count 2 s after the last press).
        while page_scores(url) != {ident: t.sim.scoreboard()["scores"] for ident, t in zip(ids, tables)}:
            assert time.monotonic() - live_began < live_s + limit_s, "the page is behind the boards"
            time.sleep(0.1)
        cpu = cpu_seconds(proc.pid) - cpu0
        assert stored(db_url) == want  # and nothing twice
        page = sorted(page_scores(url))
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
        }
    finally:
        for t in tables:
            t.stop()
        proxy.close()
        stop(proc)
