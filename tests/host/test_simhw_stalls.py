# The simulated board's watchdog counts the chip's time, not the time its
# process was stopped on a busy machine (cribboard/mp/simhw.py): a board
# whose process waited for a CPU or a disk is not bitten; one whose loop
# ran on the CPU without a pass, or read its pins without a pass, is. Run
# on CPython with a fake clock and a fake /proc/self/schedstat.
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from deadline import COMMAND_S

from cribboard import resources


class Clock:
    def __init__(self):
        self.ms = 1000
        self.ran_ns = 5_000_000  # what schedstat says this process has run on a CPU


class LoopTick:
    """The firmware's LoopWatch on its 1 s timer: it feeds the watchdog only if the loop moved."""

    def __init__(self, simhw, clock):
        self.simhw, self.period, self.due = simhw, 1000, clock.ms + 1000
        self.passes, self._seen = 0, -1

    def fire(self):
        self.due += self.period
        if self.passes != self._seen:
            self._seen = self.passes
            self.simhw.watchdog_feed()


def board():
    spec = importlib.util.spec_from_file_location("simhw_fresh", resources.mp_dir() / "simhw.py")
    simhw = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(simhw)  # a fresh copy: its state is module-wide
    clock = Clock()
    simhw.ticks_ms = lambda: clock.ms
    simhw._read_ran_ns = lambda: clock.ran_ns
    tick = LoopTick(simhw, clock)
    simhw.timers.append(tick)
    simhw.watchdog_start(8000)
    return simhw, clock, tick


def run(simhw, clock, tick, ms, passes=True):
    """The firmware's loop for ms: a pin read every 10 ms, and a pass with each unless passes=False (a
    loop stuck reading its pins), each taking 1 ms of CPU."""
    for _ in range(ms // 10):
        clock.ms += 10
        clock.ran_ns += 1_000_000
        tick.passes += passes
        simhw.service()


@pytest.mark.parametrize("cpu_ms", [0, 300, 2_000])
def test_twelve_seconds_the_process_did_not_run_are_skipped(cpu_ms):
    """Stopped, waiting for a CPU or for a disk: the chip saw only the CPU time (under 8 s here)."""
    simhw, clock, tick = board()
    run(simhw, clock, tick, 3000)
    clock.ms += 12_000
    clock.ran_ns += cpu_ms * 1_000_000
    simhw.service()
    run(simhw, clock, tick, 10_000)  # and the board goes on, fed as before
    assert simhw._wdt_timeout == 8000
    # less what it ran since schedstat was last read (up to 500 ms before: 1 ms a pass there)
    assert 12_000 - cpu_ms - 50 <= simhw.skipped_ms <= 12_000 - cpu_ms


def test_a_loop_that_runs_twelve_seconds_on_the_cpu_without_a_pass_is_bitten():
    simhw, clock, tick = board()
    run(simhw, clock, tick, 3000)
    clock.ms += 12_000
    clock.ran_ns += 11_900_000_000  # its time was the CPU's: on a chip it ran all along
    with pytest.raises(simhw.Reset):
        simhw.service()


def test_a_loop_that_reads_its_pins_but_makes_no_pass_is_bitten():
    simhw, clock, tick = board()
    run(simhw, clock, tick, 3000)
    with pytest.raises(simhw.Reset):
        run(simhw, clock, tick, 12_000, passes=False)
    assert clock.ms <= 3000 + 10_000  # within the timeout and the feeding timer's period


def test_a_wait_the_board_asked_for_is_no_stall():
    """At the REPL the board waits on its serial line until its next timer: that wait is the chip's
    time (its timers fire on it), and a gap beyond it is a stall."""
    simhw, clock, tick = board()
    run(simhw, clock, tick, 3000)
    simhw._asleep_ms = simhw.service()  # as wait_input() does before it sleeps
    clock.ms += simhw._asleep_ms
    simhw.service()
    assert simhw.skipped_ms == 0
    simhw._asleep_ms = simhw.service()
    clock.ms += simhw._asleep_ms + 5_000  # woken on time, then stopped for 5 s
    simhw.service()
    assert simhw.skipped_ms == 5_000


def test_where_schedstat_cannot_be_read_a_stall_is_skipped_whole():
    simhw, clock, tick = board()
    simhw._read_ran_ns = lambda: None
    run(simhw, clock, tick, 3000)
    clock.ms += 12_000
    simhw.service()
    assert simhw.skipped_ms == 12_000
    with pytest.raises(simhw.Reset):  # a loop reading its pins without a pass is still bitten
        run(simhw, clock, tick, 12_000, passes=False)


def test_the_real_schedstat_is_read_on_micropython_too():
    spec = importlib.util.spec_from_file_location("simhw_real", resources.mp_dir() / "simhw.py")
    real = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(real)
    kept = Path("/proc/self/schedstat").exists()  # (not where the kernel keeps no scheduler statistics)
    ran = real._read_ran_ns()
    assert (isinstance(ran, int) and ran > 0) if kept else ran is None
    if kept and shutil.which("micropython", path=str(Path(sys.executable).parent)):
        said = subprocess.run(
            [
                str(Path(sys.executable).parent / "micropython"),
                "-c",
                "import sys; sys.path.insert(0, %r); import simhw; print(simhw._read_ran_ns())"
                % str(resources.mp_dir()),
            ],
            capture_output=True,
            text=True,
            timeout=COMMAND_S,
        )
        assert said.stdout.strip().isdigit(), said
