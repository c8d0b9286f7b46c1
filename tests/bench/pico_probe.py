# The bench's probe on the emulated Pico (tests/bench/bench_pico.py copies it
# to probe.py, and a main.py that runs it): the real app and loop
# (cribmp.start, cribapp.mainloop), with a pause that measures between
# passes: bytes allocated by each pass (the collector held off in between,
# so nothing is freed unseen), the time of a pass, the strip's write, and
# the live heap after a collection every 500 passes, when the figures also
# go to probe.json, which the bench reads when the game is over.
# (gc.mem_alloc() itself takes milliseconds here: it counts the whole
# heap's table; it is kept out of the pass's time.) main.py measures what
# importing this module took (its code, compiled from source, and its
# buffers) before any of the app is loaded: the bench reports the app's
# live heap without it.
import gc
import json
import time

_N = 500
busy_us = [0] * _N  # each pass's own time (the pause excluded), the last _N
writes_us = [0] * 50  # the strip's writes, the last 50
alloc_last = [0] * 20  # what the last 20 passes that allocated anything allocated
live = [0] * 20  # the live heap at the last 20 collections
counts = [0] * 8  # passes, writes, alloc_max, alloc_total, alloc_passes, alloc_some, live_max, collections
last = [0, 0]  # mem_alloc and ticks_us at the end of the last pause
counted = [-1, 0]  # mem_alloc before the loop's own collection in this pass (-1: none), and its time
probe_bytes = [0]


def build():
    from cribmp import start

    board = start.build()
    strip = board.renderer.sink
    write = strip.write

    def timed_write():
        t = time.ticks_us()
        write()
        writes_us[counts[1] % 50] = time.ticks_diff(time.ticks_us(), t)
        counts[1] += 1

    strip.write = timed_write
    return board


def pause():
    now_us = time.ticks_us()
    now_alloc = gc.mem_alloc() if counted[0] < 0 else counted[0]
    if counted[0] >= 0:
        now_us = time.ticks_add(now_us, -counted[1])
        counted[0] = -1
    n = counts[0]
    counts[0] = n + 1
    if n:
        used = now_alloc - last[0]
        counts[2] = max(counts[2], used)
        counts[3] += used
        counts[4] += 1
        if used:
            alloc_last[counts[5] % 20] = used
            counts[5] += 1
        busy_us[n % _N] = time.ticks_diff(now_us, last[1])
    if n % 500 == 499:
        gc.collect()
        held = gc.mem_alloc()
        counts[6] = max(counts[6], held)
        live[counts[7] % 20] = held
        counts[7] += 1
        f = open("probe.json", "w")
        f.write(
            json.dumps(
                {
                    "passes": counts[0],
                    "writes": counts[1],
                    "alloc_max": counts[2],
                    "alloc_mean": counts[3] / max(1, counts[4]),
                    "alloc_some": counts[5],
                    "alloc_last": alloc_last,
                    "busy_us": busy_us,
                    "write_us": writes_us,
                    "live_max": counts[6],
                    "live": live,
                    "collections": counts[7],
                    "probe_bytes": probe_bytes[0],
                    "heap": gc.mem_alloc() + gc.mem_free(),
                }
            )
        )
        f.close()
    time.sleep_ms(2)
    last[0] = gc.mem_alloc()
    last[1] = time.ticks_us()  # the pass's clock starts after the count


def collect():
    """The loop's collection after a change: what the pass allocated is counted first
    (and the count's own time taken off the pass's)."""
    t = time.ticks_us()
    counted[0] = gc.mem_alloc()
    counted[1] = time.ticks_diff(time.ticks_us(), t)
    gc.collect()


def run(own_bytes):
    """main.py's: own_bytes is what importing this module took."""
    probe_bytes[0] = own_bytes
    from cribapp import mainloop

    gc.disable()  # collected on purpose only, so each pass's bytes are seen
    mainloop.run(build, pause, collect=collect)
