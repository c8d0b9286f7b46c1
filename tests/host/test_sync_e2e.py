# End to end on the simulated board: deploy with the real mpremote through
# `cribboard flash`, play a game by pressing buttons, sync into a fresh
# database, cut syncs off in every way, and garble the line.
import json
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime
from functools import partial

import pytest
from clirun import cli as run_cli
from clirun import line_starting
from deadline import COMMAND_S, WAIT_S
from simboard import Board, fill_log

from cribboard import store
from cribboard.link import sync
from cribboard.link.client import BoardLink
from cribboard.link.lines import LinkError

cli = partial(run_cli, check=True)  # check=False where a command is meant to fail


def stored(db_url, board=None):
    """The sequence numbers stored (of one board, or all)."""
    conn = store.connect(db_url)
    try:
        if board is None:
            return [r["seq"] for r in conn.all("SELECT seq FROM games ORDER BY seq")]
        return [r["seq"] for r in conn.all("SELECT seq FROM games WHERE board = ? ORDER BY seq", (board,))]
    finally:
        conn.close()


def test_flash_play_sync_list_stats_plot(tmp_path):
    board = Board(tmp_path / "flash")
    try:
        restarts = board.restarts()
        done = cli("flash", "--port", board.port, "--json")
        manifest = json.loads((tmp_path / "flash" / "deploy.json").read_text())
        assert manifest["state"] == "complete"
        assert "lib/cribapp/app.mpy" in manifest["sizes"]
        assert "lib/cribclub/sender.mpy" in manifest["sizes"]  # the simulated board is a Pico W: it has WiFi
        result = json.loads(done.stdout)  # data on stdout, progress on stderr
        assert result["files"] == len(manifest["sizes"])
        assert "lib/cribapp/app.mpy" in result["written"]
        assert "lib/cribapp/app.py" in result["removed"]
        assert "flash: writing lib/cribapp/app.mpy" in done.stderr
        assert not (tmp_path / "flash" / "lib" / "cribapp" / "app.py").exists()
        board.back(restarts)  # the board restarted on the new firmware
        board.play_a_game_to_61()
        dbfile = str(tmp_path / "results.sqlite3")
        assert "1 new game stored" in cli("sync", "--port", board.port, "--db", dbfile).stdout
        assert "0 new games stored" in cli("sync", "--port", board.port, "--db", dbfile).stdout
    finally:
        board.stop()
    games = json.loads(cli("matches", "--db", dbfile, "--json").stdout)
    assert len(games) == 1
    g = games[0]
    assert (g["scores"], g["target"], g["skunk"], g["game_points"]) == ([61, 12], 61, "skunk", 3)
    ended = datetime.fromisoformat(g["ended_at"])  # ISO 8601 with its offset
    assert ended.utcoffset() is not None
    assert abs(ended.timestamp() - time.time()) < 600
    stats = json.loads(cli("stats", "--db", dbfile, "--json").stdout)
    winner = next(p for p in stats["players"] if p["wins"] == 1)
    assert winner["skunks_given"] == [1, 0, 0]
    assert winner["points"]["points"] == round(61 / 4, 2)
    png = tmp_path / "race.png"
    drawn = cli("plot", "1", "--db", dbfile, "-o", str(png))
    assert drawn.stderr.splitlines() == ["drawing game 1's race chart...", "wrote %s" % png]  # (it takes seconds)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 10000
    csv_text = cli("export", "--db", dbfile).stdout
    assert csv_text.splitlines()[0].startswith("id,board,seq")
    assert len(csv_text.splitlines()) == 2


class Unplugged(LinkError):
    pass


def test_a_sync_cut_off_anywhere_stores_every_game_once(tmp_path, db_url):
    flash = tmp_path / "flash"
    fill_log(flash, 600)  # enough that the kill below lands while the sync runs
    board = Board(flash)
    dbfile = db_url
    try:
        # 1. Unplugged after the third batch (in-process, exactly there).
        link = BoardLink(board.port)
        real = link.records
        calls = []

        def flaky(since, limit=20):
            calls.append(since)
            if len(calls) == 4:
                raise Unplugged("unplugged")
            return real(since, limit)

        link.records = flaky
        conn = store.connect(dbfile)
        with pytest.raises(Unplugged):
            sync.sync(link, conn)
        link.close()
        assert stored(dbfile) == list(range(1, 61))
        # 2. The sync process killed while it runs.
        proc = subprocess.Popen(
            [sys.executable, "-m", "cribboard.cli", "sync", "--port", board.port, "--db", dbfile],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + WAIT_S
        while len(stored(dbfile)) == 60 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL
        assert 60 < len(stored(dbfile)) < 600  # killed after a batch was stored, before the last
    finally:
        board.stop()  # 3. and the board itself goes away
    # The board comes back (same flash): one more sync fetches the rest.
    board = Board(flash, seed=False)
    try:
        assert "new game" in cli("sync", "--port", board.port, "--db", dbfile).stdout
    finally:
        board.stop()
    assert stored(dbfile) == list(range(1, 601))
    conn = store.connect(dbfile)
    assert conn.value("SELECT COUNT(*) FROM events") == sum(
        len(json.loads(r["record"])["events"]) for r in conn.all("SELECT record FROM games")
    )
    conn.close()


def test_the_board_dying_mid_sync_is_one_clear_error(tmp_path, db_url):
    flash = tmp_path / "flash"
    fill_log(flash, 1000)  # the board dies after the first batch, long before the last
    board = Board(flash)
    dbfile = db_url
    # A user's wait for each answer (3 s, three tries): the tests' 40 s would outlast this test's own wait.
    proc = subprocess.Popen(
        [sys.executable, "-m", "cribboard.cli", "sync", "--port", board.port, "--db", dbfile],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, CRIBBOARD_LINK_WAIT="3"),
    )
    deadline = time.monotonic() + WAIT_S
    while not stored(dbfile) and time.monotonic() < deadline:
        time.sleep(0.005)
    board.sim.proc.kill()  # the board dies under the sync: its port says nothing more
    _, err = proc.communicate(timeout=WAIT_S)
    board.stop()
    assert proc.returncode == 1 and err.startswith("cribboard: error: ") and "Traceback" not in err, err
    assert err.count("\n") == 1, err
    board = Board(flash, seed=False)
    try:
        cli("sync", "--port", board.port, "--db", dbfile)
    finally:
        board.stop()
    assert stored(dbfile) == list(range(1, 1001))


def test_syncs_at_the_same_moment_into_one_database_store_every_game_once(tmp_path, db_url):
    """A club evening: two laptops sync two boards into one database at once,
    and a third syncs the first board again meanwhile."""
    boards = []
    try:
        for name, games in (("a", 80), ("b", 60)):
            fill_log(tmp_path / name, games)
            boards.append(Board(tmp_path / name))
        store.connect(db_url).close()  # the schema made once, as a club's server has it
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "cribboard.cli", "sync", "--port", port, "--db", db_url, "--json"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for port in (boards[0].port, boards[1].port)
        ]
        while not stored(db_url) and all(p.poll() is None for p in procs):
            time.sleep(0.005)
        again = cli("sync", "--port", boards[0].port, "--db", db_url, "--json")
        outcomes = [p.communicate(timeout=120) for p in procs]
        assert all(p.returncode == 0 for p in procs), [err for _, err in outcomes]
        ids = [json.loads(out)["board"] for out, _ in outcomes]
        new = [json.loads(out)["new_games"] for out, _ in outcomes]
        assert new[0] + json.loads(again.stdout)["new_games"] == 80
        assert new[1] == 60
        assert stored(db_url, ids[0]) == list(range(1, 81))
        assert stored(db_url, ids[1]) == list(range(1, 61))
    finally:
        for b in boards:
            b.stop()


def test_a_port_in_use_is_waited_for_and_never_shared(tmp_path):
    """Two programs reading one port would each get half of every reply (the
    flake this test came from): the second waits its turn, or says why not."""
    fill_log(tmp_path / "flash", 2)
    board = Board(tmp_path / "flash")
    try:
        first = BoardLink(board.port)
        with pytest.raises(LinkError, match="in use by another program"):
            BoardLink(board.port, busy_s=0)
        waiting = threading.Event()
        second = []
        waiter = threading.Thread(
            target=lambda: second.append(BoardLink(board.port, tell=lambda text: waiting.set(), busy_s=WAIT_S))
        )
        waiter.start()
        assert waiting.wait(WAIT_S)  # it says what it waits for
        board_id = first.hello()["board"]  # the holder's replies are whole meanwhile
        first.close()
        waiter.join(WAIT_S)
        assert second
        assert second[0].hello()["board"] == board_id
        second[0].close()
    finally:
        board.stop()


def test_a_garbled_record_is_asked_for_again_and_never_stored(tmp_path):
    flash = tmp_path / "flash"
    fill_log(flash, 30)
    board = Board(flash)
    try:
        link = BoardLink(board.port)
        real = link._readline
        seen = []

        def noisy(deadline):
            line = real(deadline)
            if line and line.startswith(b"REC "):
                seen.append(line)
                if len(seen) in (3, 25):  # two records arrive damaged once each
                    return line.replace(b'"winner"', b'"wInner"')
            return line

        link._readline = noisy
        conn = store.connect(str(tmp_path / "r.sqlite3"))
        new, rejected, board_id, _ = sync.sync(link, conn)
        link.close()
    finally:
        board.stop()
    assert new == 30
    assert rejected == 0
    assert link.junk == 2
    rows = conn.all("SELECT seq, record FROM games ORDER BY seq")
    assert [r["seq"] for r in rows] == list(range(1, 31))
    assert all('"winner"' in r["record"] and "wInner" not in r["record"] for r in rows)
    assert len(board_id) == 16  # the id the board gives in HELLO, not one a record claims


def test_no_board_is_one_line_naming_the_ports_tried_and_exit_status_1(tmp_path):
    env_free = {k: v for k, v in os.environ.items() if k != "CRIBBOARD_PORT"}
    proc = subprocess.run(
        [sys.executable, "-m", "cribboard.cli", "sync", "--db", str(tmp_path / "x.db")],
        capture_output=True,
        text=True,
        env=env_free,
        timeout=COMMAND_S,
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith("cribboard: error: no board found (ports tried: ")
    assert proc.stderr.count("\n") == 1
    proc = subprocess.run(
        [sys.executable, "-m", "cribboard.cli", "flash", "--port", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    errors = [line for line in proc.stderr.splitlines() if not line.startswith("flash: ")]
    assert proc.returncode == 1
    assert len(errors) == 1
    assert errors[0].startswith("cribboard: error: cannot open ")


def test_watch_shows_entries_live(tmp_path):
    board = Board(tmp_path / "flash")
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "cribboard.cli", "watch", "--port", board.port],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line_starting(proc.stderr, "watching board ")
        board.enter("P2", 4)
        assert proc.stdout.readline().strip() == "game 1  +4 track 2       0 - 4"
        board.press("UNDO")
        assert proc.stdout.readline().strip() == "game 1  undo             0 - 0"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(WAIT_S)
        board.stop()


def test_a_deploy_cut_short_is_reported_by_the_next_flash(tmp_path):
    flash = tmp_path / "flash"
    board = Board(flash)
    try:
        (flash / "deploy.json").write_text('{"state": "incomplete", "version": "0.1.0"}')
        out = cli("flash", "--port", board.port)
        assert "the last deploy to this board had not finished (incomplete): repaired" in out.stderr
        assert json.loads((flash / "deploy.json").read_text())["state"] == "complete"
    finally:
        board.stop()


def test_sync_gives_up_at_once_on_a_board_showing_the_deploy_error_and_makes_no_database(tmp_path):
    flash = tmp_path / "flash"
    Board(flash).stop()
    (flash / "deploy.json").write_text('{"state": "incomplete", "version": "0.1.0"}')  # a deploy cut short
    board = Board(flash, seed=False)
    try:
        done = cli("sync", "--port", board.port, "--db", str(tmp_path / "s.db"), check=False)
    finally:
        board.stop()
    (said,) = done.stderr.splitlines()  # the board names its trouble: no rounds of tries (20 s before)
    assert "last deploy did not finish" in said and done.returncode == 1, said
    assert not (tmp_path / "s.db").exists()  # no board, no database made


def test_sync_on_a_silent_port_says_what_it_waits_for_then_gives_up_in_one_line(tmp_path):
    import pty
    import tty

    master, slave = pty.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    try:
        done = cli(
            "sync", "--port", name, "--db", str(tmp_path / "s.db"), check=False, env={"CRIBBOARD_LINK_WAIT": "1"}
        )  # the user's wait: nothing will answer
    finally:
        os.close(master)
        os.close(slave)
    said = done.stderr.splitlines()
    assert said[0] == "%s: no answer yet; waiting up to 2 s more for the board's program" % name, said
    assert said[1].startswith("%s: no answer from the Cribboard program; restarting what runs there" % name)
    assert said[-1].startswith("cribboard: error: no answer to HELLO from %s: nothing answered" % name), said
    assert done.returncode == 1
    assert not (tmp_path / "s.db").exists()
