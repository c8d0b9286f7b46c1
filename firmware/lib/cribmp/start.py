# MicroPython's edge, run by main.py: the hardware (machine.Pin buttons,
# the neopixel strip, the USB serial line) and the loop. With
# cribapp.deploycheck, the only modules that touch machine pins;
# cribapp.assemble builds the app from the board's files. The app is
# imported only after deploycheck says the last deploy finished whole.
# main.py is only `from cribmp.start import run` and `run()`, without a
# comment: a board compiles main.py from source at every power-up, slowly
# (this module's source took 110 ms on a Pico; three lines of comment in
# main.py, 15 ms). The link is attached after the first frame (_connect).
# boot.py (firmware/micropython_boot) is likewise only `rest()`: MicroPython
# runs it at every reset, a soft one too (mpremote's), which ends the timer
# that fed the app's watchdog though the watchdog runs on (rp2: until a
# hard reset); rest() feeds it again while the board rests at its REPL.
import sys

# The port's modules the firmware uses, entered in sys.modules once. Since
# v1.21 an `import json` looks for a json.py on every sys.path entry first
# (a built-in may be extended by a file) and keeps no built-in in
# sys.modules, so it searched the flash on every import: 6 ms each on a
# Pico, about 110 ms of a power-up. With only the frozen entries on the
# path a built-in is found without touching the file system. (The names
# are a literal in the loop: a module-level tuple would keep its name.)


def _enter_port_modules():
    path = sys.path[:]
    sys.path[:] = [p for p in path if p.startswith(".frozen")]  # neopixel is frozen Python
    try:
        for name in (
            "gc",
            "time",
            "machine",
            "neopixel",
            "micropython",
            "json",
            "os",
            "select",
            "array",
            "binascii",
            "io",
            "collections",
        ):
            try:
                if name not in sys.modules:  # a stand-in a test entered first stays
                    sys.modules[name] = __import__(name)
            except ImportError:  # a port without it: the firmware does not use it there
                pass
    finally:
        sys.path[:] = path


if sys.implementation.name == "micropython":
    _enter_port_modules()
del _enter_port_modules  # its code is heap

import gc  # noqa: E402
import time  # noqa: E402

import machine  # noqa: E402
import neopixel  # noqa: E402

from cribcore import const  # noqa: E402  (the app imports cribcore first thing in any case)

_LOOP_MS = const(2)
_kept = []  # the watchdog's timer and its LoopWatch, from boot.py on


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

    def watchdog_reset(self):
        """rp2 (v1.28.0) says WDT_RESET after machine.reset() too, which a
        deploy and a crash's restart use: the saved state tells a hang from
        those (cribapp.assemble). The unix port has no reset_cause."""
        cause = getattr(machine, "reset_cause", None)
        return cause is not None and cause() == machine.WDT_RESET


def build(root="", stream=None, clock=time):
    """Everything the board needs, from the files under root. Tests pass a
    fake serial stream and clock; on the board they are USB and `time`.
    Returns a SelfTest instead if OK is held at power-up (the maker's check).
    (run() builds with _build_first.)"""
    from cribapp import assemble

    if stream is None:
        from cribmp.usbstream import UsbStream

        stream = UsbStream()
    return assemble.build(root, Hardware(), stream, clock)


def _build_first():
    """run()'s build: the deploy checked, the link attached after the first
    frame (_connect). The USB layer's own Ctrl-C goes off first, as the link
    keeps it (cribmp.usbstream): a Ctrl-C that came before the link would
    otherwise stop the program anywhere, a save half done among them; it
    waits for the link, which stops the program between two passes."""
    import micropython

    from cribapp import assemble

    micropython.kbd_intr(-1)
    return assemble.build("", Hardware(), None, time, True)


def _connect(app):
    """The serial link, once the first frame is out: its modules are read
    from the flash after the board shows its score, not before."""
    from cribapp.linkwait import LinkWait
    from cribmp.usbstream import UsbStream

    app.attach(LinkWait(UsbStream(), app))
    app.club_start = _club
    _club(app)


def _club(app):
    """A board given a club's WiFi and server (cribboard wifi, cribboard
    pair) reports to it by itself; any other board never loads cribclub.
    A board without a network module (a plain Pico) has no WiFi."""
    from cribapp.store import CLUB, WIFI

    files = app.store.files
    if files.size(WIFI) <= 0 or files.size(CLUB) <= 0:
        return
    try:
        import socket

        import network

        from cribclub import start as reporting

        wlan = network.WLAN(network.STA_IF)
    except (ImportError, OSError):  # no WiFi on this port or chip, or no sender on this flash: it plays on
        return
    app.club = reporting(app, files, wlan, socket)


def _pause():
    time.sleep_ms(_LOOP_MS)


def _describe(e):
    """An exception's traceback, as the REPL would print it."""
    import io

    out = io.StringIO()
    # MicroPython's StringIO is a stream print_exception writes to, with getvalue(); the stubs miss both.
    sys.print_exception(e, out)  # pyright: ignore[reportArgumentType]
    return out.getvalue()  # pyright: ignore[reportAttributeAccessIssue]


def rest():
    """boot.py's, at every reset: the watchdog, fed from a timer while the
    board rests (at its REPL, or before its loop runs), so that a soft
    reset, which ends the timer that fed it, never leaves it unfed."""
    watch = _watchdog()
    if watch is not None:
        watch.rest()


def _watchdog():
    """The hardware watchdog, fed from a timer while the loop makes progress
    (cribmp.watchdog); None where the port has none (the unix port). The
    one boot.py started is taken over: fed from now on only while the loop
    moves."""
    if _kept:
        watch = _kept[1]
        watch.wake()
        return watch
    if not hasattr(machine, "WDT"):
        return None
    from cribmp.watchdog import TICK_MS, TIMEOUT_MS, LoopWatch

    watch = LoopWatch(machine.WDT(timeout=TIMEOUT_MS).feed)
    try:
        timer = machine.Timer(-1)  # rp2: a virtual timer
    except (ValueError, TypeError):
        timer = machine.Timer(0)  # ESP32: hardware timers only
    timer.init(period=TICK_MS, mode=machine.Timer.PERIODIC, callback=watch.tick)
    _kept.append(timer)  # referenced for as long as the program runs
    _kept.append(watch)
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
        mainloop.run(_build_first, _pause, _describe, machine.reset, _watchdog, gc.collect, _connect)
    finally:
        if hasattr(sys, "print_exception"):  # MicroPython: the link had Ctrl-C (usbstream); the REPL gets it back
            import micropython

            micropython.kbd_intr(3)
