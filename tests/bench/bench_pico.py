# The firmware on the real MicroPython RP2040 port, in the emulated Pico
# (tests/rp2040): a blank Pico is flashed with `cribboard flash`, powered off
# and on, and timed on the emulated 125 MHz clock: power-on to the first
# frame, and a button's deciding edge (the press for P1, the release for OK)
# to the frame that shows it. Prints JSON.
# Usage: .venv/bin/python tests/bench/bench_pico.py
import json
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests" / "host")]

from clirun import cli  # noqa: E402
from pico import Pico  # noqa: E402

P1, OK = 2, 7  # hardware/boards/pico.json


def events(log):
    """[(what, emulated us)] of the last power-up: frames and button edges."""
    out = []
    for line in log.read_text().splitlines():
        m = re.fullmatch(r"time (frame|down|up) (\d+) us", line.strip())
        if m:
            if out and int(m.group(2)) < out[-1][1]:
                out = []  # a new power-up: its clock starts again at 0
            out.append((m.group(1), int(m.group(2))))
    return out


def to_frame(evs, edge, nth):
    """Microseconds from the nth `edge` to the first frame after it."""
    k = [i for i, (w, _) in enumerate(evs) if w == edge][nth]
    at = evs[k][1]
    return next(t for w, t in evs[k:] if w == "frame") - at


def main():
    with tempfile.TemporaryDirectory() as tmp:
        pico = Pico(Path(tmp) / "flash.bin").start()
        try:
            done = cli("flash", "--port", pico.port, timeout=300)
            if done.returncode:
                raise SystemExit(done.stderr)
        finally:
            pico.stop()
        pico.log.write_text("")
        pico.start(env={"PICO_TIMES": "1"})
        try:
            pico.hw.wait_frame(0, 60)
            for _ in range(5):
                pico.press(P1)
                pico.press(OK)
            pico.hw.wait_frame(pico.hw.frames, 2)
        finally:
            pico.stop()
        evs = events(pico.log)
    first = next(t for w, t in evs if w == "frame")
    p1 = [to_frame(evs, "down", 2 * k) for k in range(5)]
    ok = [to_frame(evs, "up", 2 * k + 1) for k in range(5)]
    print(json.dumps({"first_frame_ms": round(first / 1000, 1),
                      "p1_press_to_frame_ms": [round(t / 1000, 1) for t in p1],
                      "ok_release_to_frame_ms": [round(t / 1000, 1) for t in ok],
                      "p1_median_ms": round(statistics.median(p1) / 1000, 1),
                      "ok_median_ms": round(statistics.median(ok) / 1000, 1)}))


if __name__ == "__main__":
    main()
