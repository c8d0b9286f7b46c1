# MicroPython's edge, run by main.py: the hardware (machine.Pin buttons,
# the neopixel strip, the USB serial line) and the loop. The only module
# that touches machine pins; cribapp.assemble builds the app from the
# board's files. The app is imported only after deploy.json says the last
# deploy finished whole: if it did not, this module shows the deploy-error
# pattern by itself and `cribboard flash` can still take over. It imports
# only built-in modules until then. (Bytecode, not main.py's source: a
# board compiles a source file on every power-up, 140 ms of it here.)
import gc
import json
import os
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


DEPLOY_ERROR_SAYS = "Cribboard: the last deploy did not finish: run cribboard flash\r\n"


def _ctrl_c_waiter():
    """wait(ms): a pause that Ctrl-C on the serial line ends with KeyboardInterrupt.
    USB does this by itself on a board; a plain stream (the simulated board's) needs the read.
    Any other line a host sends is answered with what is wrong, in words
    (`cribboard sync` shows them)."""
    waiting = select.poll()
    waiting.register(sys.stdin, select.POLLIN)
    byte = bytearray(1)

    def wait(ms):
        for _ in waiting.ipoll(ms):
            if sys.stdin.buffer.readinto(byte):
                if byte[0] == 3:
                    raise KeyboardInterrupt
                if byte[0] == 10:
                    sys.stdout.write(DEPLOY_ERROR_SAYS)

    return wait


def deploy_info(root=""):
    """deploy.json as `cribboard flash` left it: a dict, {} if it cannot be
    read (cut off while written), None if there is none (installed another way)."""
    try:
        f = open(root + "/deploy.json" if root else "deploy.json")
    except OSError:
        return None
    try:
        data = json.loads(f.read())
    except ValueError:
        data = {}
    finally:
        f.close()
    return data if isinstance(data, dict) else {}


def deploy_whole(deploy, root=""):
    """The last deploy finished and every file it wrote has its full size.
    Checked before the app is imported: MicroPython can hang for good on a
    .mpy cut short, where neither the link nor `cribboard flash` reach it.
    One listing a folder (LittleFS gives each size with its name)."""
    if deploy.get("state") != "complete":
        return False
    sizes = deploy.get("sizes")
    if not isinstance(sizes, dict):
        return True  # a deploy from before sizes were written
    found = {}
    for path in sizes:
        cut = path.rfind("/") + 1
        folder = root + "/" + path[:cut] if root else path[:cut] or "."
        if folder not in found:
            found[folder] = {}
            try:
                for entry in os.ilistdir(folder) if hasattr(os, "ilistdir") else os.listdir(folder):
                    name = entry if isinstance(entry, str) else entry[0]  # CPython's listdir, in the tests
                    found[folder][name] = entry[3] if len(entry) == 4 else os.stat(folder + "/" + name)[6]
            except OSError:
                pass
        if found[folder].get(path[cut:]) != sizes[path]:
            return False
    return True


def show_deploy_error(root="", blinks=-1, wait=None):
    """The last deploy did not finish (or left a file cut short): blink the
    deploy-error pattern on track 1's game-point LEDs, as deploy.json names
    them (the first six LEDs on pin 0, the Pico's, if it cannot), without
    loading the app, until Ctrl-C (cribboard flash) or a reset. Tests give
    blinks >= 0 and their own wait(ms)."""
    pin, n, leds = 0, DEPLOY_ERROR_LEDS, range(DEPLOY_ERROR_LEDS)
    where = (deploy_info(root) or {}).get("error")
    if isinstance(where, dict) and type(where.get("pin")) is int and type(where.get("leds")) is int:
        lit = where.get("lit")
        if isinstance(lit, list) and all(type(i) is int and 0 <= i < where["leds"] for i in lit):
            pin, n, leds = where["pin"], where["leds"], lit
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
    deploy = deploy_info()
    if deploy is not None and not deploy_whole(deploy):
        show_deploy_error()  # the app is not loaded: it may be half deployed
        return
    from cribapp import mainloop

    try:
        mainloop.run(build, _pause, _describe, machine.reset, _watchdog, gc.collect)
    finally:
        if hasattr(sys, "print_exception"):  # MicroPython: the link had Ctrl-C (usbstream); the REPL gets it back
            import micropython

            micropython.kbd_intr(3)
