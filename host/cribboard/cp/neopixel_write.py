# Stand-in for CircuitPython's neopixel_write: records what would go down the wire.
import simcp


def neopixel_write(digitalinout, buf):
    simcp.sent(buf)
