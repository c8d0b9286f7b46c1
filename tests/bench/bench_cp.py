# The CircuitPython edge's budgets, on CPython with the stand-ins for
# CircuitPython's modules and the real Adafruit neopixel driver over them
# (as `make test-cp` runs it). Prints JSON:
#   frame_net_bytes   memory still held per frame after 200 blinking frames
#                     (tracemalloc; the harness's copy of the wire bytes freed)
#   frame_peak_bytes  the most held at once during them (temporaries), less
#                     that copy
#   boot_us, press_us boot to first frame from a saved match, a press to its
#                     frame; with the reference loop (100,000 additions) in
#                     the same run, for reference-loop units
import json
import os
import statistics
import sys
import time
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PATH = (
    "tests/bench",
    "tests/core",
    "tests/firmware",
    "firmware/lib",
    ".stubs/cp",
    "host/cribboard/cp",
    "tests/circuitpython",
)
for p in PATH:
    sys.path.insert(0, os.path.join(ROOT, p))

import simcp  # noqa: E402
from bench_core import reference_us  # noqa: E402
from cprig import CpTable, fresh_flash  # noqa: E402

from rig import FakeClock  # noqa: E402


def frames():
    t = CpTable(fresh_flash(), clock=FakeClock(start=0, period=1 << 29))  # far from the wrap: every frame new
    t.enter(0, 14)
    t.tap("P2")  # a pending point blinks: every frame is new and written
    t.run(100)
    app = t.app
    for _ in range(5):
        t.clock.advance(250)
        app.draw(t.clock.ticks_ms())
    tracemalloc.start()
    del simcp.frames[:]
    base, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    n, sent, recorded = int(os.environ.get("FRAMES", "200")), 0, 0
    for _ in range(n):
        t.clock.advance(250)
        app.draw(t.clock.ticks_ms())
        sent += len(simcp.frames)
        if simcp.frames:
            recorded = sys.getsizeof(simcp.frames[-1])
        del simcp.frames[:]  # the harness's copy of the wire bytes: not the driver's
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert sent == n  # every frame went down the wire
    return {"frames": n, "frame_net_bytes": (current - base) / n, "frame_peak_bytes": max(0, peak - base - recorded)}


def boot_and_press():
    flash = fresh_flash()
    t = CpTable(flash)
    for side in (0, 1, 0):
        t.enter(side, 12)
    boots = []
    for _ in range(20):
        simcp.reset()
        t0 = time.perf_counter()
        again = CpTable.__new__(CpTable)  # boot.py and code.py as at power-up, timed to the first frame
        CpTable.__init__(again, flash)
        boots.append((time.perf_counter() - t0) * 1e6)
    presses = []
    for _ in range(30):
        simcp.levels["GP2"] = False
        step = 0
        while again.app.session.pending == 0 and step < 20:
            again.clock.advance(10)
            t0 = time.perf_counter()
            again.app.step()
            took = (time.perf_counter() - t0) * 1e6
            step += 1
        presses.append(took)
        simcp.levels["GP2"] = True
        again.run(2500)  # let the point count
    return {"boot_us": statistics.median(boots), "press_us": statistics.median(presses)}


def main():
    out = {"reference_us": reference_us()}
    out.update(frames())
    out.update(boot_and_press())
    print(json.dumps(out))


main()
