# Before a MicroPython board imports its app: did the last deploy finish,
# whole? `cribboard flash` marks deploy.json "incomplete" before its first
# change and "complete", with every file's size, after its last. If not,
# the deploy-error pattern blinks here, with nothing of the app imported
# (MicroPython can hang for good on a .mpy cut short), until Ctrl-C lets
# `cribboard flash` take over. Loaded once a power-up, then forgotten.
import json
import os
import select
import sys

import machine
import neopixel

from cribcore import const  # (loaded already: cribapp's __init__ imports cribcore)

DEPLOY_ERROR_LEDS = 6  # the deploy-error pattern (cribapp.codes.ERR_DEPLOY): six LEDs blink red
_BLINK_MS = const(500)
_RED = const((80, 0, 0))
_DARK = const((0, 0, 0))


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
                    sys.stdout.write("Cribboard: the last deploy did not finish: run cribboard flash\r\n")

    return wait


def passed(root=""):
    """The last deploy finished whole, or the files were installed another way."""
    deploy = deploy_info(root)
    return deploy is None or deploy_whole(deploy, root)


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
    wrote = {}  # folder ("" or "lib/cribapp/") -> how many files the deploy wrote there
    for path in sizes:
        folder = path[: path.rfind("/") + 1]
        wrote[folder] = wrote.get(folder, 0) + 1
    for folder in wrote:
        where = (root + "/" + folder if root else folder) or "."
        found = 0
        try:
            if hasattr(os, "ilistdir"):
                entries = os.ilistdir(where)  # (name, type, inode[, size]): the size on LittleFS and FAT
            else:  # CPython, in the tests
                entries = [(n, 0, 0) for n in os.listdir(where)]
            for entry in entries:
                size = sizes.get(folder + entry[0])
                if size is not None:
                    if size != (entry[3] if len(entry) > 3 else os.stat(where + "/" + entry[0])[6]):
                        return False
                    found += 1
        except OSError:
            return False
        if found != wrote[folder]:
            return False  # one is missing
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
