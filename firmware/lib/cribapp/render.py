# From state to LEDs: a frame of palette indices, composed into preallocated
# buffers, limited to the power budget and written only where it changed.
# Nothing here allocates per frame: colours are precomputed tuples.
from array import array

from cribapp.compat import const

OFF = const(0)
FRONT = const(1)  # + track
BACK = const(4)  # + track
PENDING = const(7)  # + track
POINT = const(10)  # + track
DEALER = const(13)
LINE = const(14)
ZONE = const(15)
ERROR = const(16)
MENU = const(17)
MARK = const(18)
_COLOURS = const(19)

_TRACK_RGB = const(((255, 40, 0), (0, 90, 255), (0, 255, 60)))
_BRIGHTNESS = const((24, 48, 96, 160, 255))  # user levels 1..5, of 255
_LEVELS = const(8)  # power limiter steps: the frame at k/8 of full brightness


def _base_colours():
    out = [(0, 0, 0)] * _COLOURS
    for t in range(3):
        r, g, b = _TRACK_RGB[t]
        out[FRONT + t] = (r, g, b)
        out[BACK + t] = (r // 8, g // 8, b // 8)
        out[PENDING + t] = ((r + 255) // 2, (g + 255) // 2, (b + 255) // 2)
        out[POINT + t] = (r // 3, g // 3, b // 3)
    out[DEALER] = (255, 180, 60)
    out[LINE] = (255, 0, 0)
    out[ZONE] = (40, 0, 0)
    out[ERROR] = (255, 0, 0)
    out[MENU] = (200, 200, 200)
    out[MARK] = (0, 200, 200)
    return out


def _scaled(scale, div):
    # Its own function: a comprehension's captured variables are heap cells,
    # made on every call of the function that holds it.
    return tuple([(r * scale // div, g * scale // div, b * scale // div) for r, g, b in _base_colours()])


class Renderer:
    def __init__(self, layout, sink, config, brightness=3):
        n = layout.n
        if sink.n < n:
            raise ValueError("the strip has %d LEDs but layout %s needs %d" % (sink.n, layout.name, n))
        self.layout = layout
        self.sink = sink
        self.n = n
        self.frame = bytearray(n)
        self.shown = bytearray(n)
        self.lit = array("H", [0] * n)
        self.nlit = 0
        self.shown_lit = array("H", [0] * n)
        self.nshown = 0
        self.level = _LEVELS
        self.shown_level = -1
        allowed = config.budget_ma - config.idle_ma_per_led * n
        if allowed <= 0:
            raise ValueError("the current budget %d mA is used up by %d idle LEDs" % (config.budget_ma, n))
        self.allowed_ua = allowed * 1000
        self.channel_ma = config.channel_ma
        self.writes = 0
        self.last_ua = 0
        self.set_brightness(brightness)

    def set_brightness(self, level):
        """User brightness 1..5: rebuilds the palettes (not a per-frame cost)."""
        if not (1 <= level <= len(_BRIGHTNESS)):
            raise ValueError("brightness is 1 to %d, not %r" % (len(_BRIGHTNESS), level))
        self.brightness = level
        # A palette per limiter level, made the first time that level is
        # needed (most boards only ever use full level): heap is scarce.
        self.palettes = {}
        full = self.palette(_LEVELS)
        self.ua = array("L", [(r + g + b) * self.channel_ma * 1000 // 255 for r, g, b in full])
        self.shown_level = -1  # rewrite everything lit in the new colours

    def palette(self, level):
        p = self.palettes.get(level)
        if p is None:
            p = _scaled(_BRIGHTNESS[self.brightness - 1] * level, 255 * _LEVELS)
            self.palettes[level] = p
        return p

    # --- composing ---------------------------------------------------------
    def begin(self):
        frame = self.frame
        lit = self.lit
        for k in range(self.nlit):
            frame[lit[k]] = OFF
        self.nlit = 0

    def put(self, i, colour):
        if i >= self.n:
            return
        if self.frame[i] == OFF:
            self.lit[self.nlit] = i
            self.nlit += 1
        self.frame[i] = colour

    def hole(self, track, h, colour):
        if 1 <= h <= 121:
            self.put(self.layout.hole[track][h], colour)

    def span(self, track, first, last, colour):
        for h in range(first, last + 1):
            self.hole(track, h, colour)

    def dealer(self, track, colour=DEALER):
        self.put(self.layout.dealer[track], colour)

    def points(self, track, count, colour):
        leds = self.layout.points[track]
        for k in range(len(leds)):
            if k < count:
                self.put(leds[k], colour)

    # --- writing -----------------------------------------------------------
    def finish(self):
        """Limit the frame to the power budget, push what changed and write
        the strip if anything did. Returns True if the strip was written."""
        frame = self.frame
        ua = self.ua
        total = 0
        for k in range(self.nlit):
            total += ua[frame[self.lit[k]]]
        level = _LEVELS
        while level > 1 and total * level > self.allowed_ua * _LEVELS:
            level -= 1
        self.last_ua = total * level // _LEVELS
        palette = self.palette(level)
        recolour = level != self.shown_level
        # LEDs lit last time (to turn off or change), then those lit now.
        changed = self._push(self.shown_lit, self.nshown, palette, recolour)
        changed = self._push(self.lit, self.nlit, palette, recolour) or changed
        for k in range(self.nlit):
            self.shown_lit[k] = self.lit[k]
        self.nshown = self.nlit
        self.shown_level = level
        if changed:
            self.sink.write()
            self.writes += 1
        return changed

    def _push(self, leds, count, palette, recolour):
        frame = self.frame
        shown = self.shown
        sink = self.sink
        changed = False
        for k in range(count):
            i = leds[k]
            c = frame[i]
            if c != shown[i] or recolour:
                sink[i] = palette[c]
                shown[i] = c
                changed = True
        return changed

    def colour(self, c):
        """The RGB colour index c is shown in now (for tests and the simulator)."""
        return self.palette(self.shown_level if self.shown_level > 0 else _LEVELS)[c]
