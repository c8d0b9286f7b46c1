# The simulated board's watchdog counts the chip's time, not the time the
# OS stopped its process on a busy machine (cribboard/mp/simhw.py): a gap
# in the running loop's pin reads is not a hang, while a loop that keeps
# reading the pins and makes no progress is still bitten. Run on CPython
# with a fake clock.
import importlib.util

import pytest

from cribboard import resources


class Clock:
    def __init__(self):
        self.ms = 1000


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
    tick = LoopTick(simhw, clock)
    simhw.timers.append(tick)
    simhw.watchdog_start(8000)
    return simhw, clock, tick


def read_a_pin(simhw, clock):
    """What a pin read does before it reads (machine.Pin.value -> simhw.poll, its host link aside)."""
    simhw._pause_for_gap(clock.ms)
    simhw.service()


def run(simhw, clock, tick, ms, progress=True):
    """The firmware's loop for ms: a pass and a pin read every 10 ms (passes that make no progress: none)."""
    for _ in range(ms // 10):
        clock.ms += 10
        tick.passes += 1 if progress else 0
        read_a_pin(simhw, clock)


def test_twelve_seconds_the_os_kept_the_process_from_its_loop_are_no_hang():
    simhw, clock, tick = board()
    run(simhw, clock, tick, 3000)
    clock.ms += 12_000  # stopped by the OS between two pin reads: a busy machine
    read_a_pin(simhw, clock)
    run(simhw, clock, tick, 10_000)  # and the board goes on, fed as before
    assert simhw._wdt_timeout == 8000


def test_a_loop_that_reads_the_pins_but_makes_no_progress_is_bitten():
    simhw, clock, tick = board()
    run(simhw, clock, tick, 3000)
    with pytest.raises(simhw.Reset):
        run(simhw, clock, tick, 10_000, progress=False)  # stuck, yet reading a pin every 10 ms


def test_a_hung_core_is_bitten_whatever_the_gaps():
    simhw, clock, tick = board()
    run(simhw, clock, tick, 3000)
    clock.ms += 9000  # the core hung ("Z"): only the watchdog counts, and it is not fed
    assert simhw._bitten(clock.ms)
