# The heap a host's USB link costs the board: the live heap of the board at
# rest (main.build, its first frame out, no host yet), then once a host has
# asked HELLO, LIST and STATE (the link's modules loaded, cribapp.link and
# cribcore.serialwire with its words, and the link's buffers made). Small on
# purpose, as heapgame.py is; the figures as JSON:
#   MICROPYPATH=build/mpy:build/mpy/lib:tests/fakes micropython -X heapsize=192wK tests/bench/heaplink.py
import json
import time

from heapgame import PINS, ROOT, Clock, fresh_root, live_heap


class HostStream:
    """What a host sends, a byte a read, and how much the board answered."""

    def __init__(self):
        self.sent = b""
        self.at = 0
        self.answered = 0

    def say(self, line):
        from cribcore.seal import seal

        self.sent = self.sent[self.at :] + seal(line)
        self.at = 0

    def readinto(self, buf):
        if self.at >= len(self.sent):
            return None
        buf[0] = self.sent[self.at]
        self.at += 1
        return 1

    def write(self, data):
        self.answered += len(data)


def main():
    import machine  # noqa: F401 (the fakes, before the firmware)
    import neopixel  # noqa: F401

    fresh_root()
    with open(ROOT + "/board.json", "w") as f:
        f.write(json.dumps({"name": "bench", "strip_pin": 0, "buttons": PINS, "layout": "3-track"}))
    from cribmp import start as main

    clock = Clock()
    host = HostStream()
    app = main.build(ROOT, host, clock)

    def run(ms):
        for _ in range(ms // 10):
            clock.now = time.ticks_add(clock.now, 10)
            app.step()

    run(200)
    out = {"at_rest": live_heap()}
    for line in ("HELLO", "LIST 0 50", "STATE"):
        host.say(line)
        run(400)
    out["link_served"] = live_heap()
    out["link_cost"] = out["link_served"] - out["at_rest"]
    out["answered_bytes"] = host.answered
    print(json.dumps(out))


main()
