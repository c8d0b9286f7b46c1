# The game the heap benchmarks play (bench_device.py on the unix port,
# bench_wasm.mjs on the WebAssembly port): a whole 3-player game to 121 on
# the real firmware, main.build with only the fake machine and neopixel
# modules. Small on purpose: the benchmark's own names and code share the
# heap with the firmware's. Run it for the figures as JSON:
#   MICROPYPATH=build/mpy:build/mpy/lib:tests/fakes micropython -X heapsize=192wK tests/bench/heapgame.py
import gc
import json
import os
import time

ROOT = "/tmp/cribboard-bench"


def fresh_root():
    # Not tests/firmware/rig.empty_dir: importing the rig would put its code and names on the heap measured.
    try:
        os.mkdir(ROOT)
    except OSError:
        pass
    for name in os.listdir(ROOT):
        os.remove(ROOT + "/" + name)


class Clock:
    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def ticks_add(self, a, b):
        return time.ticks_add(a, b)


class NullStream:
    def readinto(self, buf):
        return None

    def write(self, data):
        pass


PINS = {"P1": 2, "P2": 3, "P3": 4, "UNDO": 5, "SKUNK": 6, "OK": 7}


def game_steps(out, club=None):
    """A 3-player game to 121 on the real firmware (main.build, with the fake
    machine and neopixel modules only), pressed out pin by pin; a generator
    that yields every 10 loop passes, so the caller can sample the live heap
    between them (the WebAssembly port collects only between its calls).
    Fills `out` with the result. club: a club's {"server", "key"} to report
    to, on a board with WiFi (heapclub.py: out["app"] is the app)."""
    fresh_root()
    with open(ROOT + "/board.json", "w") as f:
        f.write(json.dumps({"name": "bench", "strip_pin": 0, "buttons": PINS, "layout": "3-track"}))
    if club:
        for name, kept in (("wifi.json", {"ssid": "club", "password": ""}), ("club.json", club)):
            with open(ROOT + "/" + name, "w") as f:
                f.write(json.dumps(kept))
    import machine
    from cribmp import start as main

    clock = Clock()
    app = main.build(ROOT, NullStream(), clock)
    if club:
        main._club(app)  # as the edge does once the first frame is out
        out["app"] = app
    steps = [0]

    def run(ms):
        for _ in range(ms // 10):
            clock.now = time.ticks_add(clock.now, 10)
            app.step()
            steps[0] += 1
            if steps[0] % 10 == 0:
                yield

    def press(name, ms=60):
        machine.Pin.levels[PINS[name]] = 0
        yield from run(ms)
        machine.Pin.levels[PINS[name]] = 1
        yield from run(40)

    yield from run(100)
    yield from press("OK", 900)  # the menu
    yield from press("P1")
    yield from press("P1")  # players
    yield from press("P2")  # 2 -> 3
    yield from press("OK")
    g = app.match.game
    script = ((0, 100), (2, 64), (1, 121))
    for side, final in script:
        while g.score(side) < final and not g.over():
            for _ in range(min(12, final - g.score(side))):
                yield from press("P%d" % (side + 1))
            yield from press("OK")
    yield from press("OK")  # confirm the win: the game is logged
    out["done"] = g.winner() == 1 and g.players == 3
    out["events"] = len(g.events)


def live_heap(samples=3):
    """The live heap: the least of a few collections in a row (a pointer
    the last step left in a register or on the stack can keep garbage for
    one collection; the live heap is at most each sample)."""
    least = None
    for _ in range(samples):
        gc.collect()
        n = gc.mem_alloc()
        least = n if least is None or n < least else least
    return least


def game():
    """The game, sampling the live heap every 10 loop passes. The benchmark's
    own heap (this module and the fake machine and neopixel modules, which
    a board does not have) is measured before the firmware is imported and
    reported apart: firmware_peak_heap is the peak without it."""
    import machine  # noqa: F401 (the fakes, imported before the firmware)
    import neopixel  # noqa: F401

    harness = live_heap()
    out = {}
    peak = 0
    for _ in game_steps(out):
        peak = max(peak, live_heap())
    out["peak_live_heap"] = peak
    out["harness_heap"] = harness
    out["firmware_peak_heap"] = peak - harness
    out["live_heap_after"] = live_heap()
    return out


if __name__ == "__main__":
    print(json.dumps(game()))
