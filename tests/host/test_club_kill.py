# The club's machine killed under load (issue 71): 50 boards (the board's
# own sender, cribclub.sender, on CPython with the firmware's fake clock
# and flash, real sockets) play and report into a real `cribboard serve`,
# which is SIGKILLed 20 times at random moments (no clean stop: requests cut
# mid-way, transactions under way) and started again on its port, on both
# engines. After each kill, every game a board was acknowledged (its
# cursor moved only on a signed 200) is in the database; at the end every
# game logged is stored, once, as logged. Run by `make test-club`, one test
# at a time: 50 boards and a server restarted 20 times fill a machine.
import json
import random
import select
import time

import clubserver
import pytest
from deadline import WAIT_S
from simboard import log_games
from test_club_sender import Joined

from cribapp.hostapi import HostApi
from cribapp.store import Store
from cribboard import store
from cribclub.sender import Sender

from rig import FakeFlash, Table

BOARDS = 50
KILLS = 20


def a_board(n):
    ident = "%016x" % (0xB0A4D0000 + n)
    flash = FakeFlash()
    kept = Store(flash)
    kept.load()
    log_games(kept, 1, ident)
    return ident, Table(flash=flash, board_id=ident)


def sender_for(table, url):
    return Sender(
        HostApi(table.app),
        Joined(),
        __import__("socket"),
        table.clock,
        {"ssid": "club", "password": ""},
        {"server": url, "key": clubserver.KEY},
    )


def held(db_url):
    """{board: the seqs the database holds of it}."""
    conn = store.connect(db_url)
    try:
        out = {}
        for r in conn.all("SELECT board, seq FROM games"):
            out.setdefault(r["board"], set()).add(int(r["seq"]))
        return out
    finally:
        conn.close()


def poll(boards, passes):
    """Each board's sender polled `passes` times (its clock past any backoff: a board waits, a test need not)."""
    for _ in range(passes):
        busy = False
        for _ident, table, s in boards:
            if not s.busy():
                table.clock.advance(s.waiting(table.clock.now))
            table.clock.advance(1)
            s.poll(table.clock.now)
            busy = busy or s.busy()
        if busy:
            select.select([], [], [], 0.0005)


def play(boards, rng):
    """Games finished at a few boards, points entered at others (their live states go)."""
    for _ in range(rng.randrange(1, 6)):
        ident, table, _s = rng.choice(boards)
        log_games(table.store, 1, ident)
    for _ in range(rng.randrange(5, 16)):
        _ident, table, _s = rng.choice(boards)
        table.enter(rng.randrange(2), rng.randrange(1, 4))


@pytest.mark.club
@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
def test_every_game_acknowledged_is_stored_through_twenty_kills_under_fifty_boards(tmp_path, request, engine):
    db_url = (
        str(tmp_path / "club.sqlite3") if engine == "sqlite" else request.getfixturevalue("pg_cluster").new_database()
    )
    made = [a_board(n) for n in range(BOARDS)]
    for ident, _table in made:
        clubserver.pair(db_url, ident)
    proc, url = clubserver.start(db_url)
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    boards = [(ident, table, sender_for(table, url)) for ident, table in made]
    rng = random.Random(71)
    lost = []
    try:
        for kill in range(KILLS):
            busy_passes, deadline = rng.randrange(1, 200), time.monotonic() + WAIT_S
            while busy_passes:  # killed at a random pass with requests under way
                assert time.monotonic() < deadline, "no request under way to cut"
                if not any(s.busy() for _i, _t, s in boards):
                    play(boards, rng)
                poll(boards, 1)
                busy_passes -= any(s.busy() for _i, _t, s in boards)
            proc.kill()  # SIGKILL: no clean stop
            proc.wait(timeout=WAIT_S)
            clubserver.stop(proc)
            acked = {ident: table.app.board.acked for ident, table, _s in boards}
            proc, url = clubserver.start(db_url, port)
            now = held(db_url)
            lost += [(kill, i, s) for i, a in acked.items() for s in range(1, a + 1) if s not in now.get(i, ())]
        assert sum(table.app.board.acked for _i, table, _s in boards) > KILLS, "games were acknowledged all along"
        assert sum(s.failures for _i, _t, s in boards) >= KILLS, "the kills cut requests under way"
        deadline = time.monotonic() + 10 * WAIT_S
        while any(table.app.board.acked < table.store.last_seq for _i, table, _s in boards):
            assert time.monotonic() < deadline, "the boards' games did not all go"
            poll(boards, 50)
    finally:
        clubserver.stop(proc)
    assert lost == [], "acknowledged, then missing after a kill: %s" % lost[:10]
    conn = store.connect(db_url)
    try:
        rows = conn.all("SELECT board, seq, record FROM games ORDER BY board, seq")
    finally:
        conn.close()
    logged = sorted((i, s, json.loads(t)) for i, table, _s in boards for s, t in table.store.since(0, 1000))
    assert [(r["board"], r["seq"], json.loads(r["record"])) for r in rows] == logged  # each once, as logged
