# Every tap the page's API answers is one the board counted, also on a
# machine too busy to run the board's process when it should: 2,000 taps
# in bursts of 1 to 25, on sixteen boards at once,
# each burst confirmed with OK and its points read back from the state the
# board saved, while two CPU-bound processes run beside them and each
# board's process is stopped now and then for up to 150 ms (what a loaded
# machine does to it, made frequent). The simulated board holds a button's
# level until the firmware has read it for its time: a tap set and cleared
# while the OS had stopped the board's process was lost (8 in about 6,000
# on a loaded machine; with these stops, one within the first 19 taps).
import os
import random
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from simboard import Board

TAPS = 2000
BOARDS = 16  # tapped at once, a sixteenth of the taps each
CEILING = 100  # an entry is undone before a track passes this: no game is won, every tap counts


@pytest.fixture
def cpu_hogs():
    """Two processes that keep both cores busy for the whole test."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        yield hogs
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


class Stalls:
    """Stops a process for 30 to 150 ms, every 100 to 400 ms, until stopped.
    The sleeps here make the load; they wait for nothing."""

    def __init__(self, pid, seed):
        self.pid = pid
        self.rng = random.Random(seed)
        self.done = threading.Event()
        self.stops = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.done.wait(self.rng.uniform(0.1, 0.4)):
            os.kill(self.pid, signal.SIGSTOP)
            try:
                time.sleep(self.rng.uniform(0.03, 0.15))
                self.stops += 1
            finally:
                os.kill(self.pid, signal.SIGCONT)

    def stop(self):
        self.done.set()
        self.thread.join()


def scores(board):
    (view,) = board.get("/api/state")["boards"]
    return view["scores"]


def tap_in_bursts(board, taps, rng):
    """taps taps on board in bursts, each burst's points read back from the state it saved."""
    expected = [0, 0]
    entries = []  # (track, points) in the order entered: UNDO takes back the last
    tapped = 0
    while tapped < taps:
        track = rng.randrange(2)
        n = min(rng.randint(1, 25), taps - tapped)
        if expected[track] + n > CEILING:
            while entries and expected[track] + n > CEILING:
                back_track, back_points = entries.pop()
                board.press("UNDO")
                expected[back_track] -= back_points
                assert scores(board) == expected, "UNDO took back more or less than the last entry"
        board.enter("P%d" % (track + 1), n)
        tapped += n
        expected[track] += n
        entries.append((track, n))
        got = scores(board)
        assert got == expected, "after %d taps: the board counted %s, the page was told %s" % (tapped, got, expected)
    return tapped


@pytest.mark.sweep  # (make test-faults: its two CPU-bound processes would starve the checks beside it)
def test_every_tap_in_bursts_is_counted_beside_two_busy_processes(tmp_path, cpu_hogs):
    # A tap waits on its board's time (held down, then up), not on a CPU: sixteen tables tap in the time of
    # one, and the machine is busier still.
    boards, stalls = [], []

    def table(n):
        board = Board(tmp_path / ("flash%d" % n))
        boards.append(board)
        stalls.append(Stalls(board.sim.proc.pid, 41 + n))
        return tap_in_bursts(board, TAPS // BOARDS, random.Random(40 + n))

    try:
        with ThreadPoolExecutor(BOARDS) as tables:
            assert sum(tables.map(table, range(BOARDS))) == TAPS
        assert all(hog.poll() is None for hog in cpu_hogs)  # the machine was busy the whole time
        assert sum(s.stops for s in stalls) > TAPS // 10  # and the boards' processes were stopped often
    finally:
        for s in stalls:
            s.stop()
        for board in boards:
            board.stop()
