# Entry point on a CircuitPython board: the same app as main.py runs on
# MicroPython, through CircuitPython's edge (lib/cribcp): pins by name,
# Adafruit's NeoPixel driver, the link on the second USB serial port that
# boot.py enables, and supervisor.ticks_ms(), which wraps at 2**29. The app
# is imported only inside build(): if a deploy was cut off and the app cannot
# start, this file still shows the deploy-error pattern, through the
# built-in neopixel_write, not the deployed Adafruit library.
import gc
import time
import traceback

import board
import digitalio
import neopixel_write
import supervisor

LOOP_S = 0.002
TICKS_PERIOD = 1 << 29  # where supervisor.ticks_ms() wraps (HELLO tells the host)
DEPLOY_ERROR_LEDS = 6  # the deploy-error pattern (cribapp.codes.ERR_DEPLOY): six LEDs blink red
_BLINK_S = 0.5
_RED = b"\x00\x50\x00"  # one LED's bytes on the wire, GRB order
_DARK = b"\x00\x00\x00"


def build(root="", stream=None, clock=None):
    """The app (or the self-test, if OK is held) from the files under root.
    Tests pass their own stream and clock."""
    from cribcp.hardware import Hardware

    from cribapp import assemble
    from cribcore.ticks import Ticks

    if stream is None:
        import usb_cdc
        from cribcp.datastream import DataStream

        stream = DataStream(usb_cdc.data)
    if clock is None:
        clock = Ticks(TICKS_PERIOD, supervisor.ticks_ms)
    return assemble.build(root, Hardware(), stream, clock)


def _strip_pin(root):
    """Where the deploy error can be shown: the strip's pin and the LEDs of
    track 1's game points; else the board's own NeoPixel (a Feather's), else
    the first six LEDs on GP0 (a Pico's strip)."""
    try:
        from cribcp.pins import board_pin

        from cribapp.boardfiles import read_json
        from cribcore.config import Config
        from cribcore.layout import Layout

        pin = board_pin(Config(read_json(root, "board.json")[0]).strip_pin)
        try:
            layout = Layout(read_json(root, "layout.json")[0])
            return pin, layout.n, layout.points[0][:DEPLOY_ERROR_LEDS]
        except Exception:  # no layout: the strip's first LEDs
            return pin, DEPLOY_ERROR_LEDS, range(DEPLOY_ERROR_LEDS)
    except Exception:  # any failure: the app's own modules may be half deployed
        pass
    own = getattr(board, "NEOPIXEL", None)
    if own is not None:
        return own, 1, range(1)
    return getattr(board, "GP0", None), DEPLOY_ERROR_LEDS, range(DEPLOY_ERROR_LEDS)


def show_deploy_error(root="", blinks=-1, wait=time.sleep):
    """The app cannot start and the last deploy did not finish: blink the
    deploy-error pattern until Ctrl-C or a reset (CircuitPython restarts
    code.py by itself when the next deploy writes the drive). Tests give
    blinks >= 0 and their own wait(seconds)."""
    pin, n, leds = _strip_pin(root)
    if pin is None:
        return
    out = digitalio.DigitalInOut(pin)
    out.switch_to_output()
    buf = bytearray(3 * n)
    on = False
    while blinks != 0:
        on = not on
        blinks -= 1
        for i in leds:
            buf[3 * i : 3 * i + 3] = _RED if on else _DARK
        neopixel_write.neopixel_write(out, buf)
        wait(_BLINK_S)
    out.deinit()


def _cannot_start(e):
    try:
        from cribapp.boardfiles import deploy_finished

        finished = deploy_finished()
    except Exception:  # the app's own modules do not load: a deploy went wrong
        finished = False
    if finished:
        raise e
    # The exception alone: CircuitPython 8 and later, and CPython 3.10, take its own traceback (an
    # exception has no __traceback__ on MicroPython; the stubs miss value's default).
    traceback.print_exception(e)  # pyright: ignore[reportCallIssue]
    show_deploy_error()


def _pause():
    time.sleep(LOOP_S)


def _describe(e):
    """An exception's traceback, as the console would print it."""
    return "".join(traceback.format_exception(e))  # pyright: ignore[reportCallIssue]


def _watchdog():
    """CircuitPython's watchdog, fed every pass (it has no timers to feed
    one from): a loop stuck for 8 s raises WatchDogTimeout where the port
    has RAISE (logged as a crash, code.py reloaded) and resets the chip
    where it has only RESET (the RP2040); Ctrl-C stops it. None where the
    chip has none."""
    from cribcp.watch import CpWatch

    return CpWatch.start()


def run():
    try:
        from cribapp import mainloop

        mainloop.run(build, _pause, _describe, supervisor.reload, _watchdog, gc.collect)
    except Exception as e:  # not KeyboardInterrupt: Ctrl-C must reach the REPL
        _cannot_start(e)


if __name__ == "__main__":
    run()
