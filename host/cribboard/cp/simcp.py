# Stand-ins for CircuitPython's hardware modules (board, digitalio,
# microcontroller, neopixel_write, storage, supervisor, usb_cdc), first on
# sys.path when the CircuitPython edge runs on CPython, with the real
# Adafruit neopixel and adafruit_pixelbuf on top. Same names and signatures
# as circuitpython-stubs. This module is what they share with whoever
# drives them: pin levels, the frames sent, the chip's id, the clock.
levels = {}  # pin name -> level; an unset input reads high (pulled up, not pressed)
frames = []  # every buffer neopixel_write sent, as bytes
uid = bytearray(b"\xe6\x61\x41\x04\x03\x2b\x2c\x29")
now_ms = [0]  # supervisor.ticks_ms() is now_ms[0] wrapped at 2**29
remounts = []  # (path, readonly) of every storage.remount()


def reset():
    levels.clear()
    del frames[:]
    del remounts[:]
    now_ms[0] = 0
