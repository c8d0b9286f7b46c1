# Fake `neopixel`: a GRB byte buffer like the real driver's; `pixel(i)`
# reads back what was on the strip at the last write.
class NeoPixel:
    def __init__(self, pin, n, bpp=3):
        self.pin, self.n = pin, n
        self.buf = bytearray(3 * n)
        self.shown = bytes(self.buf)
        self.writes = 0

    def __setitem__(self, i, rgb):
        self.buf[3 * i], self.buf[3 * i + 1], self.buf[3 * i + 2] = rgb[1], rgb[0], rgb[2]

    def write(self):
        self.shown = bytes(self.buf)
        self.writes += 1

    def pixel(self, i):
        return (self.shown[3 * i + 1], self.shown[3 * i], self.shown[3 * i + 2])
