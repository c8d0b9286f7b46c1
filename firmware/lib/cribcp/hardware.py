# CircuitPython's edge for cribapp.assemble: digitalio buttons (debounced
# and turned into gestures by the shared cribapp.button, as on MicroPython),
# the strip through Adafruit's neopixel library, the id from the chip.
import digitalio
import microcontroller
import neopixel
import supervisor

from cribcp.pins import board_pin
from cribcp.strip import PixelSink


class Hardware:
    def button(self, pin, active_low):
        io = digitalio.DigitalInOut(board_pin(pin))
        io.switch_to_input(pull=digitalio.Pull.UP if active_low else digitalio.Pull.DOWN)
        if active_low:
            return lambda: not io.value
        return lambda: io.value

    def strip(self, pin, n):
        pixels = neopixel.NeoPixel(board_pin(pin), n, brightness=1.0, auto_write=False, pixel_order=neopixel.GRB)
        return PixelSink(pixels)

    def board_id(self):
        return "".join(["%02x" % b for b in microcontroller.cpu.uid])

    def watchdog_reset(self):
        """The chip's watchdog reset it, and this is code.py's first run
        since (a reload keeps the chip's reset reason). The raspberrypi port
        says WATCHDOG only for the watchdog's own timeout, SOFTWARE for
        microcontroller.reset() (CircuitPython 10, Processor.c)."""
        return (
            supervisor.runtime.run_reason == supervisor.RunReason.STARTUP
            and microcontroller.cpu.reset_reason == microcontroller.ResetReason.WATCHDOG
        )
