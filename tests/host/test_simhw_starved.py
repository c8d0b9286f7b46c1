# The simulated board's watchdog counts the chip's time, not the time its
# process waited for a CPU on a busy machine (cribboard/mp/simhw.py): a
# starved board is not bitten, a board blocked in a call still is. Run on
# CPython with a fake clock and a fake /proc/self/schedstat.
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
        self.waited_ns = 5_000_000  # what schedstat says this process has waited for a CPU


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
    simhw._read_waited_ns = lambda: clock.waited_ns
    tick = LoopTick(simhw, clock)
    simhw.timers.append(tick)
    simhw.watchdog_start(8000)
    return simhw, clock, tick


def run(simhw, clock, tick, ms):
    """The firmware's loop for ms: a pass (and a pin read) every 10 ms."""
    for _ in range(ms // 10):
        clock.ms += 10
        tick.passes += 1
        simhw.service()


@pytest.mark.parametrize("starved", [True, False])
def test_twelve_seconds_without_a_pass_bite_only_if_the_process_was_not_waiting_for_a_cpu(starved):
    simhw, clock, tick = board()
    run(simhw, clock, tick, 3000)
    clock.ms += 12_000  # no pass for 12 s
    if starved:
        clock.waited_ns += 11_900_000_000  # the OS ran other things meanwhile
        simhw.service()
        run(simhw, clock, tick, 10_000)  # and the board goes on, fed as before
        assert simhw._wdt_timeout == 8000
    else:  # blocked in a call: the chip's watchdog resets it
        with pytest.raises(simhw.Reset):
            simhw.service()


def test_where_schedstat_cannot_be_read_time_is_taken_as_it_comes():
    simhw, clock, tick = board()
    simhw._read_waited_ns = lambda: None
    run(simhw, clock, tick, 3000)
    clock.ms += 12_000
    with pytest.raises(simhw.Reset):
        simhw.service()


def test_the_real_schedstat_is_read_on_micropython_too():
    spec = importlib.util.spec_from_file_location("simhw_real", resources.mp_dir() / "simhw.py")
    real = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(real)
    kept = Path("/proc/self/schedstat").exists()  # (not where the kernel keeps no scheduler statistics)
    waited = real._read_waited_ns()
    assert (isinstance(waited, int) and waited >= 0) if kept else waited is None
    if kept and shutil.which("micropython", path=str(Path(sys.executable).parent)):
        said = subprocess.run([str(Path(sys.executable).parent / "micropython"), "-c",
                               "import sys; sys.path.insert(0, %r); import simhw; print(simhw._read_waited_ns())"
                               % str(resources.mp_dir())], capture_output=True, text=True, timeout=COMMAND_S)
        assert said.stdout.strip().isdigit(), said
