# Stand-in for CircuitPython's board: the pins of a Raspberry Pi Pico (GP0 to
# GP28) and of an Adafruit Feather RP2040 (D0 to D25, A0 to A3, NEOPIXEL).
from microcontroller import Pin


def _pins():
    names = ["GP%d" % n for n in range(29)] + ["D%d" % n for n in range(26)] + ["A%d" % n for n in range(4)]
    return {name: Pin(name) for name in names + ["NEOPIXEL", "LED"]}


globals().update(_pins())
