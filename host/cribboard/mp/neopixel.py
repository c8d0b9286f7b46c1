# The simulated board's `neopixel`: the driver's GRB buffer, sent to the host on write().
import simhw


class NeoPixel:
    ORDER = (1, 0, 2)

    def __init__(self, pin, n, bpp=3):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        base = i * self.bpp
        for k in range(3):
            self.buf[base + self.ORDER[k]] = rgb[k]

    def __getitem__(self, i):
        base = i * self.bpp
        return (self.buf[base + 1], self.buf[base], self.buf[base + 2])

    def fill(self, rgb):
        for i in range(self.n):
            self[i] = rgb

    def write(self):
        simhw.frame(self.buf)
