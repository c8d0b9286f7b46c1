# Fake `neopixel`: keeps what was set, and what was on the strip at the last write.
class NeoPixel:
    def __init__(self, pin, n, bpp=3):
        self.pin, self.n = pin, n
        self.buf = [(0, 0, 0)] * n
        self.shown = list(self.buf)
        self.writes = 0

    def __setitem__(self, i, rgb):
        self.buf[i] = rgb

    def __getitem__(self, i):
        return self.buf[i]

    def __len__(self):
        return self.n

    def write(self):
        self.shown = list(self.buf)
        self.writes += 1
