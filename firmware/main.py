# Entry point on a MicroPython board: the hardware edge (machine.Pin buttons,
# the neopixel strip, the USB serial line) and the loop. The only file that
# touches machine pins; cribapp.assemble builds the app from the board's
# files. The app is imported only inside build(): if a deploy was cut off and
# the app cannot start, this file still shows the deploy-error pattern and
# `cribboard flash` can still take over.
import select
import sys
import time

import machine
import neopixel

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython, in the tests

    def const(x):
        return x


DEPLOY_ERROR_LEDS = 6  # the deploy-error pattern (cribapp.codes.ERR_DEPLOY): six LEDs blink red
_LOOP_MS = const(2)
_BLINK_MS = const(500)
_RED = const((80, 0, 0))
_DARK = const((0, 0, 0))
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


def _ctrl_c_waiter():
    """wait(ms): a pause that Ctrl-C on the serial line ends with KeyboardInterrupt.
    USB does this by itself on a board; a plain stream (the simulated board's) needs the read."""
    waiting = select.poll()
    waiting.register(sys.stdin, select.POLLIN)
    byte = bytearray(1)

    def wait(ms):
        for _ in waiting.ipoll(ms):
            if sys.stdin.buffer.readinto(byte) and byte[0] == 3:
                raise KeyboardInterrupt

    return wait


def show_deploy_error(root="", blinks=-1, wait=None):
    """The app cannot start and the last deploy did not finish: blink the
    deploy-error pattern on track 1's game-point LEDs (the first six LEDs on
    pin 0, the Pico's, if even the code that reads the layout is broken)
    until Ctrl-C (cribboard flash) or a reset. Tests give blinks >= 0 and
    their own wait(ms)."""
    pin, n, leds = 0, DEPLOY_ERROR_LEDS, range(DEPLOY_ERROR_LEDS)
    try:
        from cribapp.boardfiles import read_json
        from cribapp.config import Config
        from cribapp.layout import Layout

        pin = Config(read_json(root, "board.json")[0]).strip_pin
        layout = Layout(read_json(root, "layout.json")[0])
        n, leds = layout.n, layout.points[0][:DEPLOY_ERROR_LEDS]
    except Exception:  # any failure: the app's own modules may be half deployed
        pass
    strip = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), n)
    wait = wait or _ctrl_c_waiter()
    on = False
    while blinks != 0:
        on = not on
        blinks -= 1
        for i in leds:
            strip[i] = _RED if on else _DARK
        strip.write()
        wait(_BLINK_MS)


def _cannot_start(e):
    try:
        from cribapp.boardfiles import deploy_finished

        finished = deploy_finished()
    except Exception:  # the app's own modules do not load: a deploy went wrong
        finished = False
    if finished:
        raise e
    sys.print_exception(e)
    show_deploy_error()


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
    try:
        from cribapp import mainloop

        mainloop.run(build, _pause, _describe, machine.reset, _watchdog)
    except Exception as e:  # not KeyboardInterrupt: Ctrl-C must reach the REPL
        _cannot_start(e)


if __name__ == "__main__":
    run()
