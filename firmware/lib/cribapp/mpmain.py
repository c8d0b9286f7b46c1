# MicroPython's edge, run by main.py: the hardware (machine.Pin buttons,
# the neopixel strip, the USB serial line) and the loop. With
# cribapp.deploycheck, the only modules that touch machine pins;
# cribapp.assemble builds the app from the board's files. The app is
# imported only after deploycheck says the last deploy finished whole.
# (Bytecode, not main.py's source: a board compiles a source file on every
# power-up, 110 ms of it on a Pico.)
import gc
import sys
import time

import machine
import neopixel

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython, in the tests

    def const(x):
        return x


_LOOP_MS = const(2)
_kept = []  # the watchdog's timer


class Hardware:
    """MicroPython's edge for cribapp.assemble."""

    def button(self, pin, active_low):
        p = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP if active_low else machine.Pin.PULL_DOWN)
        if active_low:
            return lambda: p.value() == 0
        return lambda: p.value() == 1

    def strip(self, pin, n):
        return neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), n)

    def board_id(self):
        return "".join(["%02x" % b for b in machine.unique_id()])


def build(root="", stream=None, clock=time):
    """Everything the board needs, from the files under root. Tests pass a
    fake serial stream and clock; on the board they are USB and `time`.
    Returns a SelfTest instead if OK is held at power-up (the maker's check)."""
    from cribapp import assemble

    if stream is None:
        from cribapp.usbstream import UsbStream

        stream = UsbStream()
    return assemble.build(root, Hardware(), stream, clock)


def _pause():
    time.sleep_ms(_LOOP_MS)


def _describe(e):
    """An exception's traceback, as the REPL would print it."""
    import io

    out = io.StringIO()
    # MicroPython's StringIO is a stream print_exception writes to, with getvalue(); the stubs miss both.
    sys.print_exception(e, out)  # pyright: ignore[reportArgumentType]
    return out.getvalue()  # pyright: ignore[reportAttributeAccessIssue]


def _watchdog():
    """The hardware watchdog, fed from a timer while the loop makes progress
    (cribapp.watchdog); None where the port has none (the unix port)."""
    if not hasattr(machine, "WDT"):
        return None
    from cribapp.watchdog import TICK_MS, TIMEOUT_MS, LoopWatch

    watch = LoopWatch(machine.WDT(timeout=TIMEOUT_MS).feed)
    try:
        timer = machine.Timer(-1)  # rp2: a virtual timer
    except (ValueError, TypeError):
        timer = machine.Timer(0)  # ESP32: hardware timers only
    timer.init(period=TICK_MS, mode=machine.Timer.PERIODIC, callback=watch.tick)
    _kept.append(timer)  # referenced for as long as the program runs
    return watch


def run():
    from cribapp import deploycheck

    if not deploycheck.passed():
        deploycheck.show_deploy_error()  # the app is not loaded: it may be half deployed
        return
    from cribapp.compat import forget

    forget("cribapp.deploycheck")  # its code is heap, needed again only at the next power-up
    from cribapp import mainloop

    try:
        mainloop.run(build, _pause, _describe, machine.reset, _watchdog, gc.collect)
    finally:
        if hasattr(sys, "print_exception"):  # MicroPython: the link had Ctrl-C (usbstream); the REPL gets it back
            import micropython

            micropython.kbd_intr(3)
