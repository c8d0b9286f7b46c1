# Stand-in for CircuitPython's neopixel_write: records what would go down the wire.
import simcp


def neopixel_write(digitalinout, buf):
    simcp.wire[0] = digitalinout.pin.name
    simcp.sent(buf)
