# Adafruit's NeoPixel driver as the renderer's pixel sink. It is made with
# auto_write=False and brightness 1.0: show() is the frame write, and the
# brightness stays with the renderer's power limiter.


class PixelSink:
    def __init__(self, pixels):
        self.pixels = pixels
        self.n = len(pixels)

    def __setitem__(self, i, rgb):
        self.pixels[i] = rgb

    def write(self):
        self.pixels.show()
