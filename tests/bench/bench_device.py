# Device budgets on the MicroPython unix port (the budgets in docs/benchmarks.md, "Device budgets"). One
# measurement per run, printed as JSON:
#   game   play a whole 3-player game to 121 through the buttons (run.py finds
#          the smallest heap this completes in: the firmware's peak heap)
#   frame  heap allocated per rendered frame in steady state (blinking)
#   press  button press to frame written, microseconds
#   boot   boot to first frame from a saved match (MICROPYPATH picks .py or .mpy)
import gc
import json
import sys
import time

from heapgame import ROOT, NullStream, fresh_root, game


def reference_us():
    best = None
    for _ in range(5):
        t0 = time.ticks_us()
        x = 0
        for i in range(100000):
            x += i
        t = time.ticks_diff(time.ticks_us(), t0)
        best = t if best is None or t < best else best
    return best


def table(tracks=2):
    from cribapp.store import FlashFiles

    from rig import ByteStrip, Table

    fresh_root()
    return Table(tracks=tracks, flash=FlashFiles(ROOT), strip=ByteStrip)


def frame():
    t = table()
    t.enter(0, 14)
    t.tap("P2")  # a pending point: the frame blinks on its own
    t.run(100)
    app, r = t.app, t.renderer
    frames = 0
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    writes = r.writes
    for _ in range(200):
        t.clock.advance(250)  # next blink phase: a new frame
        app.draw(t.clock.ticks_ms())
        frames += 1
    used = gc.mem_alloc() - before
    gc.enable()
    return {"frames": frames, "written": r.writes - writes, "bytes_per_frame": used / frames}


def press():
    t = table()
    app, clock = t.app, t.clock
    times = []
    for n in range(60):
        t.levels["P1"] = True
        for _ in range(4):  # debounce: the press registers on one of these polls
            clock.advance(10)
            w = t.renderer.writes
            t0 = time.ticks_us()
            app.step()
            dt = time.ticks_diff(time.ticks_us(), t0)
            if t.renderer.writes != w and app.session.pending:
                times.append(dt)
        t.levels["P1"] = False
        t.run(60)
        if n % 20 == 19:
            t.tap("OK")
    times.sort()
    return {"presses": len(times), "median_us": times[len(times) // 2], "max_us": times[-1]}


def saved_match():
    """A board's files mid-match: board.json, layout.json and a state with a
    finished game and 80 events in the current one."""
    t = table()
    from rig import play

    play(t, [0, 100], winner=0, chunk=6)
    t.tap("OK")
    for k in range(40):
        t.enter(k % 2, 1 + k % 5)
    with open(ROOT + "/board.json", "w") as f:
        f.write(
            json.dumps({"name": "bench", "strip_pin": 0, "buttons": {"P1": 2, "P2": 3, "UNDO": 5, "SKUNK": 6, "OK": 7}})
        )
    from cribcore.layoutfile import standard

    with open(ROOT + "/layout.json", "w") as f:
        f.write(json.dumps(standard(2)))


def boot():
    import machine  # noqa: F401  (the fakes first: cribmp.start keeps a stand-in already entered)
    import neopixel  # noqa: F401

    t0 = time.ticks_us()
    from cribmp import start as main

    app = main.build(ROOT, NullStream(), time)
    app.step()
    dt = time.ticks_diff(time.ticks_us(), t0)
    return {"boot_us": dt, "events": len(app.match.game.events), "frame_written": app.renderer.writes > 0}


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "prepare":
        saved_match()
        print(json.dumps({"ok": True}))
    else:
        out = {"game": game, "frame": frame, "press": press, "boot": boot}[what]()
        out["reference_us"] = reference_us()
        print(json.dumps(out))
