# The serving commands (sim, serve, live, watch) stop cleanly on SIGINT and
# on SIGTERM whatever signal disposition they inherit: a background job of
# a non-interactive shell (`make test &`, `nohup`) starts with SIGINT
# ignored, and Python keeps an ignored SIGINT, so Ctrl-C or a test's
# SIGINT did nothing. Each is started here with both ignored.
import json
import os
import queue
import signal
import subprocess
import sys
import threading

import pytest
from clirun import ENGLISH
from deadline import WAIT_S
from simboard import Board
from test_sim_processes import children, ends


def ignoring_signals():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def start(*args):
    """`cribboard ARGS` started as a background job is, and the first line it
    says (on stdout, or on stderr: watch says it is watching there)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cribboard", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ignoring_signals,
        env={**os.environ, **ENGLISH},
    )
    lines = queue.Queue()
    for stream in (proc.stdout, proc.stderr):
        threading.Thread(target=pump, args=(stream, lines), daemon=True).start()
    return proc, lines


def pump(stream, lines):
    for line in stream:
        lines.put(line)


def ready(proc, lines, word):
    """Wait for the line with word in it (the command is up and serving)."""
    while True:
        try:
            line = lines.get(timeout=WAIT_S)
        except queue.Empty:
            raise AssertionError("%s never said it was up" % proc.args[3]) from None
        if word in line:
            return line


def stops(proc, sig):
    proc.send_signal(sig)
    try:
        return proc.wait(WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError("%s ignored %s" % (proc.args[3], signal.Signals(sig).name)) from None


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    b = Board(tmp_path_factory.mktemp("board") / "flash")
    yield b
    b.stop()


SIGNALS = (signal.SIGINT, signal.SIGTERM)


@pytest.mark.parametrize("sig", SIGNALS, ids=[s.name for s in SIGNALS])
def test_sim_stops_and_takes_its_board_with_it(tmp_path, sig):
    proc, lines = start("sim", "--headless", "--json", "--http", "127.0.0.1:0", "--flash", str(tmp_path / "flash"))
    try:
        json.loads(ready(proc, lines, '"port"'))
        (board_process,) = children(proc.pid)
        assert stops(proc, sig) == 0
        assert ends(board_process, WAIT_S)
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("sig", SIGNALS, ids=[s.name for s in SIGNALS])
def test_serve_stops(tmp_path, sig):
    proc, lines = start("serve", "--db", str(tmp_path / "club.sqlite3"), "--http", "127.0.0.1:0", "--json")
    try:
        ready(proc, lines, '"url"')
        assert stops(proc, sig) == 0
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("sig", SIGNALS, ids=[s.name for s in SIGNALS])
def test_live_and_watch_stop_and_let_the_port_go(board, sig):
    from cribboard.link.client import BoardLink

    for args, word in (
        (("live", "--port", board.port, "--headless", "--json", "--http", "127.0.0.1:0"), '"url"'),
        (("watch", "--port", board.port), "watching board"),
    ):
        proc, lines = start(*args)
        try:
            ready(proc, lines, word)
            assert stops(proc, sig) == 0
        finally:
            proc.kill()
            proc.wait()
        link = BoardLink(board.port, timeout=WAIT_S)  # the port is free again: the command let it go
        try:
            assert link.hello()["board"]
        finally:
            link.close()
