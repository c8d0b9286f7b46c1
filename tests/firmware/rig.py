# Test rig for the board app: a clock, a flash that can lose power at any
# instant, a serial stream and a table of buttons, all fakes of the size of
# the interfaces they stand in for. Works under pytest and MicroPython.
import json

from cribapp import crashlog
from cribapp import render as rc
from cribapp.app import App
from cribapp.button import Button, Keypad
from cribapp.hostapi import HostApi
from cribapp.link import Link
from cribapp.render import Renderer
from cribapp.store import Store
from cribcore import TICKS_PERIOD
from cribcore.config import Config
from cribcore.layout import Layout
from cribcore.layoutfile import standard
from cribcore.seal import seal
from cribcore.ticks import Ticks


class FakeClock(Ticks):
    """A clock the test moves. It starts just before its ticks counter wraps,
    so wrap-around is always tested; period=1 << 29 is CircuitPython's."""

    def __init__(self, start=None, period=TICKS_PERIOD):
        Ticks.__init__(self, period)
        self.now = period - 5000 if start is None else start

    def ticks_ms(self):
        return self.now

    def advance(self, ms):
        self.now = self.ticks_add(self.now, ms)


class FakeStrip:
    def __init__(self, n):
        self.n = n
        self.buf = [(0, 0, 0)] * n
        self.shown = list(self.buf)
        self.writes = 0

    def __setitem__(self, i, rgb):
        self.buf[i] = rgb

    def write(self):
        self.shown = list(self.buf)
        self.writes += 1

    def rgb(self, i):
        """The colour LED i shows (as last written)."""
        return self.shown[i]


class ByteStrip:
    """Holds pixels the way MicroPython's neopixel driver does, GRB bytes in
    one buffer, allocating nothing per pixel or per write: for measuring
    the renderer's own allocations."""

    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)
        self.writes = 0

    def __setitem__(self, i, rgb):
        self.buf[3 * i] = rgb[1]
        self.buf[3 * i + 1] = rgb[0]
        self.buf[3 * i + 2] = rgb[2]

    def write(self):
        self.writes += 1

    def rgb(self, i):
        return (self.buf[3 * i + 1], self.buf[3 * i], self.buf[3 * i + 2])


class PowerCut(Exception):
    pass


class FakeFile:
    def __init__(self, flash, name, mode):
        self.flash, self.name, self.mode = flash, name, mode
        self.pending = b""
        self.pos = 0

    def write(self, data):
        self.flash.step()
        self.flash.check_space(len(data))
        self.pending += bytes(data)
        return len(data)

    def flush(self):
        self.flash.step(self)
        self.flash.disk[self.name] = self.flash.disk.get(self.name, b"") + self.pending
        self.pending = b""

    def close(self):
        if self.mode != "rb":
            self.flush()

    def read(self, n=-1):
        data = self.flash.disk.get(self.name, b"")
        end = len(data) if n is None or n < 0 else min(len(data), self.pos + n)
        out = data[self.pos : end]
        self.pos = end
        return out

    def readline(self):
        data = self.flash.disk.get(self.name, b"")
        end = data.find(b"\n", self.pos)
        end = len(data) if end < 0 else end + 1
        out = data[self.pos : end]
        self.pos = end
        return out

    def seek(self, pos):
        self.pos = pos


class FakeFlash:
    """Files that survive only what was flushed. Power is cut just before
    operation number `cut_at` (open, write, flush, close, rename, remove);
    with torn=True that operation half happens first (half its bytes land)."""

    def __init__(self, disk=None, cut_at=-1, torn=False, capacity=1 << 30):
        self.disk = {} if disk is None else disk
        self.ops = 0
        self.cut_at = cut_at
        self.torn = torn
        self.capacity = capacity

    def step(self, flushing=None):
        if self.ops == self.cut_at:
            self.cut_at = -2  # dead from now on
            if self.torn and flushing is not None and flushing.pending:
                half = flushing.pending[: len(flushing.pending) // 2]
                self.disk[flushing.name] = self.disk.get(flushing.name, b"") + half
            raise PowerCut()
        if self.cut_at == -2:
            raise PowerCut()
        self.ops += 1

    def check_space(self, more):
        used = 0
        for name in self.disk:
            used += len(self.disk[name])
        if used + more > self.capacity:
            raise OSError(28, "ENOSPC")

    def restarted(self):
        """The same flash after the power comes back."""
        return FakeFlash(dict(self.disk), capacity=self.capacity)

    # the interface of cribapp.store.FlashFiles
    def open(self, name, mode):
        if mode != "rb":
            self.step()
        if mode == "wb":
            self.disk[name] = b""
        elif mode == "rb" and name not in self.disk:
            raise OSError(2, "ENOENT")
        return FakeFile(self, name, mode)

    def rename(self, old, new):
        self.step()
        if old not in self.disk:
            raise OSError(2, "ENOENT")
        self.disk[new] = self.disk.pop(old)

    def remove(self, name):
        if name in self.disk:
            self.step()
            del self.disk[name]

    def size(self, name):
        return len(self.disk[name]) if name in self.disk else -1


class FakeStream:
    def __init__(self):
        self.incoming = b""
        self.out = b""
        self.broken = False

    def feed(self, data):
        self.incoming += data

    def readinto(self, buf):
        if not self.incoming:
            return None
        buf[0] = self.incoming[0]
        self.incoming = self.incoming[1:]
        return 1

    def write(self, data):
        if self.broken:
            raise OSError(5, "EIO")
        self.out += bytes(data)

    def lines(self):
        got = self.out.decode().split("\n")
        self.out = b""
        return [line for line in got if line]


NAMES = ("P1", "P2", "P3", "UNDO", "SKUNK", "OK")


class Table:
    """A board on the table: buttons pressed by a test, a clock it moves."""

    def __init__(
        self,
        tracks=2,
        flash=None,
        clock=None,
        held=(),
        budget=500,
        strip=None,
        watchdog_reset=False,
        board_id="test-board",
    ):
        self.levels = {}
        for name in held:
            self.levels[name] = True
        self.clock = clock or FakeClock()
        self.flash = flash if flash is not None else FakeFlash()
        self.layout = Layout(standard(tracks))
        self.strip = (strip or FakeStrip)(self.layout.n)
        cfg = dict(json.loads(json.dumps(_CONFIG)))
        cfg["current_budget_ma"] = budget
        self.config = Config(cfg)
        names = NAMES if tracks >= 3 else ("P1", "P2", "UNDO", "SKUNK", "OK")
        self.buttons = [Button(n, self._reader(n), repeats=n[0] == "P") for n in names]
        self.renderer = Renderer(self.layout, self.strip, self.config)
        self.store = Store(self.flash)
        self.app = App(self.layout, Keypad(self.buttons), self.renderer, self.clock, self.store, board_id)
        if watchdog_reset:  # what the chip said of its last reset: cribapp.assemble asks the edge
            crashlog.after_hang(self.app)
        self.run(50)  # the board has been on a moment before anyone presses

    def connect(self):
        """Plug in a host: the link on a fake serial stream."""
        self.stream = FakeStream()
        self.app.attach(Link(self.stream, HostApi(self.app)))
        return self.stream

    def state(self):
        """The board's state, as a host reads it (STATE)."""
        return HostApi(self.app).live_state()

    def ask(self, text, raw=None):
        """Send one sealed line (or raw bytes) and return the reply lines."""
        self.stream.feed(seal(text) if raw is None else raw)
        for _ in range(20):
            self.run(10)
        return self.stream.lines()

    def _reader(self, name):
        return lambda: self.levels.get(name, False)

    def run(self, ms, step=10):
        for _ in range(ms // step):
            self.clock.advance(step)
            self.app.step()

    def tap(self, name, ms=60):
        self.levels[name] = True
        self.run(ms)
        self.levels[name] = False
        self.run(40)

    def hold(self, name, ms):
        self.levels[name] = True
        self.run(ms)
        self.levels[name] = False
        self.run(40)

    def enter(self, side, points):
        """Tap a track's button `points` times and confirm with OK."""
        for _ in range(points):
            self.tap("P%d" % (side + 1))
        self.tap("OK")

    # what the LEDs show
    def rgb(self, index):
        return self.strip.rgb(index)

    def hole_rgb(self, track, hole):
        return self.rgb(self.layout.hole[track][hole])

    def lit(self):
        return [i for i in range(self.strip.n) if self.strip.rgb(i) != (0, 0, 0)]

    def pending(self, side, ms=300):
        """The points waiting on track side's button, as the peg blinking
        ahead of its front peg shows them over the next ms (0: none)."""
        colour = self.renderer.colour(rc.PENDING + side)
        holes = self.layout.hole[side]
        score = self.app.match.game.score(side)
        for _ in range(ms // 10):
            self.run(10)
            for h in range(1, 122):
                if self.rgb(holes[h]) == colour:
                    return h - score
        return 0

    def error(self):
        return error_pattern(self.app, self.rgb)

    def showing(self):
        """The dealer LED is white: this deal's hands are being counted."""
        g = self.app.match.game
        return self.rgb(self.layout.dealer[g.dealer() % g.sides]) == self.renderer.colour(rc.MENU)

    def menu_shown(self):
        """(item, value index) the menu shows on tracks 1 and 2, or None."""
        white, cyan = self.renderer.colour(rc.MENU), self.renderer.colour(rc.MARK)
        item = value = 0
        for h in range(1, 122):
            item += self.hole_rgb(0, h) == white
            value += self.hole_rgb(1, h) == cyan
        return (item - 1, value - 1) if item else None


def own_folder(prefix):
    """A new folder of this run's own in the temporary folder (TMPDIR, else
    /tmp), so two runs side by side never share one (no tempfile module on
    MicroPython: a random name, made or taken again)."""
    import os

    base = os.getenv("TMPDIR") or "/tmp"
    while True:
        path = "%s/%s-%s" % (base, prefix, "".join(["%02x" % b for b in os.urandom(6)]))
        try:
            os.mkdir(path)
            return path
        except OSError:  # taken: another name
            pass


def empty_dir(path):
    """A folder at path with nothing in it (made if missing): a board's flash."""
    import os

    try:
        os.mkdir(path)
    except OSError:
        pass
    for name in os.listdir(path):
        os.remove(path + "/" + name)


def error_pattern(app, colour_at, ms=300):
    """The error pattern a board shows over the next ms of its clock: how
    many of track 1's game-point LEDs blink red (0: none)."""
    red = app.renderer.colour(rc.ERROR)
    most = 0
    for _ in range(ms // 10):
        app.clock.advance(10)
        app.step()
        n = 0
        for i in app.layout.points[0]:
            if colour_at(i) == red:
                n += 1
        most = max(most, n)
    return most


_CONFIG = {
    "name": "test",
    "strip_pin": 0,
    "buttons": {"P1": 2, "P2": 3, "P3": 4, "UNDO": 5, "SKUNK": 6, "OK": 7},
    "current_budget_ma": 500,
    "channel_ma": 20,
}


def play(table, finals, winner, chunk=20):
    """Each loser pegs up to its final score, then the winner goes out; every
    entry is tapped in on the winner's or loser's button and confirmed with OK."""
    g = table.app.match.game
    for side in range(len(finals)):
        if side != winner:
            while g.score(side) < finals[side]:
                table.enter(side, min(chunk, finals[side] - g.score(side)))
    while not g.over():
        table.enter(winner, min(chunk, g.target - g.score(winner)))
    return g


def choose(table, values, apply="OK"):
    """Open the menu (hold OK), set {item: value} as its LEDs show them,
    and leave with OK (apply) or UNDO."""
    from cribapp.menu import options

    table.hold("OK", 900)
    for item in sorted(values):
        want = options(item, table.layout.tracks).index(values[item])
        for _ in range(12):
            if table.menu_shown()[0] == item:
                break
            table.tap("P1")
        for _ in range(12):
            if table.menu_shown()[1] == want:
                break
            table.tap("P2")
        assert table.menu_shown() == (item, want), (item, values[item])
    table.tap(apply)


def seen(table, index, ms=600):
    """Every colour LED index showed over the next ms (blinks show two)."""
    out = []
    for _ in range(ms // 10):
        table.run(10)
        c = table.rgb(index)
        if c not in out:
            out.append(c)
    return out


def log_records(table):
    return [json.loads(body) for _, body in table.store.since(0, 99)]
