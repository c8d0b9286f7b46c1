# The heap and the loop with the WiFi sender loaded (bench_club.py runs it
# on the unix port, against a real `cribboard serve`): heapgame's 3-player
# game on a board given a club, so its live states and its game go out
# while it is played; the live heap sampled every 10 passes, as heapgame
# does; each pass timed, and its sender's step apart; then, all sent, the
# bytes that idle passes allocate. The WLAN is the simulated Pico W's
# (cribboard.mp.network), the sockets the unix port's own. Usage:
#   MICROPYPATH=build/mpy:build/mpy/lib:tests/fakes:host/cribboard/mp micropython -X heapsize=192wK \
#       tests/bench/heapclub.py http://127.0.0.1:PORT/ KEY
import gc
import json
import sys
import time

import heapgame


def main():
    import machine  # noqa: F401 (the fakes, imported before the firmware)
    import neopixel  # noqa: F401
    import network  # noqa: F401

    harness = heapgame.live_heap()
    out = {}
    peak = 0
    steps = heapgame.game_steps(out, {"server": sys.argv[1], "key": sys.argv[2]})
    next(steps)
    app = out.pop("app")
    sender = app.club
    step = app.step
    most = [0, 0]  # the longest pass: with a request under way, without

    def timed():
        t = time.ticks_us()
        step()
        took = time.ticks_diff(time.ticks_us(), t)
        i = 0 if sender.busy() else 1
        if took > most[i]:
            most[i] = took
        time.sleep_us(max(0, 10000 - took))  # the game's clock goes 10 ms a pass: real time keeps its pace

    app.step = timed
    for _ in steps:
        peak = max(peak, heapgame.live_heap())
    face = sender.face
    deadline = time.ticks_add(time.ticks_ms(), 30000)
    while face.last_seq() > face.acked() or face.changes() != sender.shown or sender.busy():
        if time.ticks_diff(deadline, time.ticks_ms()) < 0:
            raise SystemExit("the club's server did not take the game")
        app.clock.now = time.ticks_add(app.clock.now, 10)
        app.step()
        time.sleep_ms(1)
    after = heapgame.live_heap()
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(1000):  # 10 s of idle passes, nothing to send
        app.clock.now = time.ticks_add(app.clock.now, 10)
        app.step()
    idle = gc.mem_alloc() - before
    print(
        json.dumps(
            {
                "done": out["done"],
                "sent": sender.sent,
                "failures": sender.failures,
                "firmware_peak_heap": peak - harness,
                "live_heap_after": after - harness,
                "idle_1000_passes_alloc": idle,
                "pass_us_max_sending": most[0],
                "pass_us_max": most[1],
            }
        )
    )


main()
