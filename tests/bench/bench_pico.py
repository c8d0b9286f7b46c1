# The firmware on the real MicroPython RP2040 port, in the emulated Pico
# (tests/rp2040), timed on its own 125 MHz clock. Prints JSON.
# 1. A blank Pico is flashed with `cribboard flash` (the 3-track layout),
#    powered off and on: power-on to the first frame; then gestures on
#    every button, each from the moment it is decided (the press for a
#    point button, the release for a tap, 20 ms of debounce after the edge;
#    a long press 700 ms after the debounced press) to the end of the first
#    frame written after it; and the flash erases and programs of each
#    entry's save.
# 2. tests/bench/pico_probe.py becomes probe.py, run by main.py: the same app and loop,
#    measured between passes through a 3-player game to 121 played on the
#    buttons: bytes allocated per pass, a pass's time, the strip's write,
#    the live heap.
# Usage: CRIBBOARD_PICO_UF2=IMAGE .venv/bin/python tests/bench/bench_pico.py
# IMAGE is the official MicroPython v1.28.0 RPI_PICO UF2 (tests/rp2040/README.md).
# Without it nothing is measured, and the JSON says so (make bench prints
# that the real port's figures were not measured, not old figures as new).
import hashlib
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests" / "host"), str(ROOT / "tests")]

from clirun import cli  # noqa: E402
from pico import NO_IMAGE, Pico, image, image_problem  # noqa: E402
from picoplay import PINS, THREE_PLAYERS, choose_players, enter, tap  # noqa: E402

from cribboard.deploy import firmware_files, manifest  # noqa: E402

MPREMOTE = str(Path(sys.executable).parent / "mpremote")
# main.py for the probe: what importing it takes (its code and buffers) is measured before the app loads.
PROBE_MAIN = "import gc\ngc.collect()\na = gc.mem_alloc()\nimport probe\ngc.collect()\nprobe.run(gc.mem_alloc() - a)\n"
DEBOUNCE_MS = 20  # cribapp.button
LONG_MS = 700
# (button, what decides it, hold ms, ms to wait after the release)
GESTURES = (
    [("P1", "press", 60, 300), ("OK", "release", 60, 300)] * 3
    + [("P2", "press", 60, 300), ("OK", "release", 60, 300)] * 3
    + [("UNDO", "release", 60, 300)] * 2
    + [("UNDO", "long", 900, 300)] * 2
    + [("SKUNK", "release", 60, 4300), ("SKUNK", "long", 900, 4300)]
    + [("OK", "long", 900, 300), ("UNDO", "release", 60, 300)]
)


def events(log):
    """The last power-up's log: [(what, fields..., us)]."""
    out = []
    for line in log.read_text().splitlines():
        words = line.split()
        if len(words) < 3 or words[0] != "time" or words[-1] != "us":
            continue
        fields = [int(w) if re.fullmatch(r"\d+", w) else w for w in words[1:-1]]
        at = fields[-1]
        if out and isinstance(at, int) and at < out[-1][-1]:
            out = []  # a new power-up: its clock starts again at 0
        out.append(tuple(fields))
    return out


def gesture_latencies(evs):
    """ms from each gesture's decision to the end of the first frame begun after it."""
    frames = [(e[1], e[2]) for e in evs if e[0] == "frame"]
    edges = [e for e in evs if e[0] in ("down", "up")]
    out = []
    k = 0
    for name, decided_by, _hold, _wait in GESTURES:
        pin = PINS[name]
        down = next(i for i in range(k, len(edges)) if edges[i][0] == "down" and edges[i][1] == pin)
        up = next(i for i in range(down, len(edges)) if edges[i][0] == "up" and edges[i][1] == pin)
        k = up + 1
        if decided_by == "press":
            at = edges[down][2] + DEBOUNCE_MS * 1000
        elif decided_by == "release":
            at = edges[up][2] + DEBOUNCE_MS * 1000
        else:
            at = edges[down][2] + (DEBOUNCE_MS + LONG_MS) * 1000
        end = next(e for s, e in frames if s >= at)
        out.append((name, decided_by, (end - at) / 1000))
    return out


def saves(evs):
    """Flash operations between each OK release and the next edge: [(erases, programs, bytes)]."""
    out = []
    for i, e in enumerate(evs):
        if e[0] == "up" and e[1] == PINS["OK"]:
            ops = []
            for f in evs[i + 1 :]:
                if f[0] in ("down", "up"):
                    break
                if f[0] == "flash":
                    ops.append(f)
            out.append(
                (
                    sum(1 for f in ops if f[1] == "E"),
                    sum(1 for f in ops if f[1] == "P"),
                    sum(f[3] for f in ops if f[1] == "P"),
                )
            )
    return out


def mpremote(port, *args):
    done = subprocess.run([MPREMOTE, "connect", port, "resume", *args], capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise SystemExit("mpremote %s: %s" % (" ".join(args), done.stderr))
    return done.stdout


CLUB_HEAP = (
    "import gc\ngc.collect()\nbefore = gc.mem_alloc()\nimport cribapp.hostapi, cribclub.sender\n"
    "gc.collect()\nprint(gc.mem_alloc() - before)"
)


# The sender's own passes on the real port (cribclub.sender, its request's states one a pass), as a WiFi
# board runs them: a request of three games (the game just logged, three times) taken from the log, encoded,
# signed, up to the socket; then the club's answer checked and the cursor moved. The face is a stand-in with
# the log's records; no socket is opened (this image has no network).
CLUB_STEPS = """import json, time
from cribclub import sender
from cribcore import clubwire as wire
from cribcore.signing import signature
f = open("games.log")
line = f.readline()
f.close()
text = line[line.index(" ") + 1:line.rindex(" ")] if line.count(" ") > 1 else line
class Face:
    acked_seq = 0
    def hello_fields(self):
        return ("e6614104032b2c29", 9, 0, 0, 3, 0)
    def last_seq(self):
        return 3
    def acked(self):
        return self.acked_seq
    def changes(self):
        return 0
    def records_since(self, seq, limit):
        return [(1, text), (2, text), (3, text)]
    def acknowledge(self, seq):
        self.acked_seq = seq
        return seq
    def live_state(self):
        return {}
s = sender.Sender(Face(), None, None, time, {"ssid": "x", "password": ""},
                  {"server": "http://192.168.1.20:8121/", "key": "6b" * 16})
s.state = 2
now = time.ticks_ms()
s.wait_until = s.checked_at = now
took = []
t = time.ticks_us()
s.poll(now)
took.append(time.ticks_diff(time.ticks_us(), t))
while s.state < 5:
    t = time.ticks_us()
    s.poll(now)
    took.append(time.ticks_diff(time.ticks_us(), t))
size = len(s._out)
ack = b'{"board": "e6614104032b2c29", "counter": "9.1", "seq": 3}'
s._in = bytearray(b"HTTP/1.0 200 OK\\r\\nContent-Length: %d\\r\\nX-Cribboard-Signature: %s\\r\\n\\r\\n" % (
    len(ack), signature(s.pads, "ACK", "/board/v1/games", "e6614104032b2c29", "9.1", ack).encode()) + ack)
s.state = 9
t = time.ticks_us()
s.poll(now)
checked = time.ticks_diff(time.ticks_us(), t)
print(",".join([str(x) for x in took]), checked, size, s.face.acked_seq == 3 and s.state == 2)
"""


def idle(pico, ms):
    """Leave the board alone for ms of its own time."""
    pico.hw.idle(PINS["P3"], ms)


def main():
    if image() is None or image_problem():
        print(json.dumps({"measured": False, "why": image_problem() or NO_IMAGE}))
        return
    uf2 = image()
    with tempfile.TemporaryDirectory() as tmp:
        pico = Pico(Path(tmp) / "flash.bin").start()
        try:
            done = cli("flash", "--port", pico.port, "--layout", "3-track", timeout=300)
            if done.returncode:
                raise SystemExit(done.stderr)
        finally:
            pico.stop()
        pico.log.write_text("")
        pico.start(env={"PICO_TIMES": "1"})
        try:
            pico.first_frame()
            idle(pico, 1000)  # the loop's first passes start the watchdog and collect booting's garbage
            for name, _by, hold, wait in GESTURES:
                pico.hw.press(PINS[name], hold, wait)
        finally:
            pico.stop()
        evs = events(pico.log)
        first = next(e[2] for e in evs if e[0] == "frame")
        latencies = gesture_latencies(evs)
        flash_ops = saves(evs)

        pico.start()
        try:
            pico.first_frame()
            main = Path(tmp) / "main.py"
            main.write_text(PROBE_MAIN)
            mpremote(pico.port, "cp", str(ROOT / "tests" / "bench" / "pico_probe.py"), ":probe.py")
            mpremote(pico.port, "cp", str(main), ":main.py")
            frames = pico.hw.frames
            mpremote(pico.port, "exec", "--no-follow", "import machine; machine.reset()")
            pico.hw.wait_frame(frames, 60)
            choose_players(pico, 3)
            for track, points in THREE_PLAYERS:
                enter(pico, track, points)
            tap(pico, "OK")  # the won game logged, the next one begun
            idle(pico, 2000)  # the probe writes its figures every 500 passes
            probe = json.loads(mpremote(pico.port, "cat", "probe.json"))
            # What a WiFi board's sender adds to the heap, on the real port's 32 bits (this image has no
            # network, so the sender is loaded here, not run): the game's modules are in, as on a board.
            # This image has no network, so `cribboard flash` left the sender off: copied here as flash
            # would write it, to be measured, not run.
            sender = [
                (remote, data) for remote, data in firmware_files.build(layout="3-track") if manifest.club_file(remote)
            ]
            copies = ["mkdir", ":lib/cribclub"]
            for remote, data in sender:
                local = Path(tmp) / Path(remote).name
                local.write_bytes(data)
                copies += ["+", "cp", str(local), ":" + remote]
            mpremote(pico.port, *copies)
            club_heap = int(mpremote(pico.port, "exec", CLUB_HEAP).split()[-1])
            passes, checked, request_bytes, ok = mpremote(pico.port, "exec", CLUB_STEPS).split()[-4:]
            if ok != "True":
                raise SystemExit("the sender's answer check failed on the Pico")
        finally:
            pico.stop()

    by_gesture = {}
    for name, by, ms in latencies:
        by_gesture.setdefault("%s %s" % (name, by), []).append(round(ms, 1))
    busy = sorted(t for t in probe["busy_us"] if t)
    writes = sorted(t for t in probe["write_us"] if t)
    print(
        json.dumps(
            {
                "measured": True,
                "image": uf2.name,
                "image_sha256": hashlib.sha256(uf2.read_bytes()).hexdigest(),
                "first_frame_ms": round(first / 1000, 1),
                "decided_to_frame_ms": by_gesture,
                "decided_to_frame_max_ms": max(ms for _n, _b, ms in latencies),
                "save_flash_ops": flash_ops,  # (erases, programs, bytes programmed) per OK
                "pass_us_median": statistics.median(busy),
                "pass_us_max": busy[-1],
                "strip_write_us_median": statistics.median(writes),
                "strip_writes": probe["writes"],
                "alloc_per_pass_max": probe["alloc_max"],
                "alloc_per_pass_mean": round(probe["alloc_mean"], 1),
                "passes_allocating": probe["alloc_some"],
                "alloc_last": probe["alloc_last"],
                "live_heap_max": probe["live_max"],
                "probe_bytes": probe["probe_bytes"],
                "live_heap_max_app": probe["live_max"] - probe["probe_bytes"],
                "heap": probe["heap"],
                "passes": probe["passes"],
                "club_sender_heap": club_heap,
                "club_request_passes_us": [int(x) for x in passes.split(",")],
                "club_request_bytes": int(request_bytes),
                "club_answer_checked_us": int(checked),
            }
        )
    )


if __name__ == "__main__":
    main()
