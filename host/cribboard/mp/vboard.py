# A virtual board, run by MicroPython's unix port for `cribboard sim`. Its
# flash is a folder mounted at "/", its USB serial line is this process's
# stdin/stdout (a pseudo-terminal the host made), and it behaves as a board
# does: boot.py runs at every reset, main.py after one into the friendly
# REPL (rp2's main.c, MicroPython v1.28.0); Ctrl-C stops it and gives the
# REPL; Ctrl-A enters the raw REPL that mpremote speaks; Ctrl-D
# soft-reboots.
# Usage: micropython vboard.py FLASH_DIR HW_PORT BOARD_ID_HEX
import gc
import os
import select
import sys
from binascii import unhexlify

import machine  # noqa: F401  (the simulated hardware: loaded before "/" is the flash)
import neopixel  # noqa: F401
import network  # noqa: F401  (a Pico W's WLAN: a board given a club's WiFi reports to it)
import simhw

BANNER = b'MicroPython (Cribboard simulated board)\r\nType "help()" for more information.\r\n'
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
PASTE_WINDOW = 256
KEEP = tuple(sys.modules)  # modules that survive a soft reboot

inp = sys.stdin.buffer
out = sys.stdout.buffer
_one = bytearray(1)
_serial = select.poll()  # (drop_input's: without the host's socket)
_serial.register(inp, select.POLLIN)


def getc():
    simhw.wait_input(inp)  # the chip's timers and watchdog run while it waits
    if not inp.readinto(_one):
        sys.exit(0)  # the host has gone: so does the board
    return _one[0]


def drop_input():
    """A reset: what the host sent and the board had not read is gone (a
    board that resets leaves the USB bus and comes back)."""
    while _serial.poll(0):
        if not inp.readinto(_one):
            sys.exit(0)


def write(data):
    out.write(data)


def soft_reset():
    simhw.soft_reset()
    for name in list(sys.modules):
        if name not in KEEP:
            del sys.modules[name]
    gc.collect()


def run_file(name):
    """Run boot.py or main.py from the flash, if it is there, as a board
    does: an exception is printed and the board goes on to its REPL."""
    try:
        os.stat(name)
    except OSError:
        return
    try:
        with open(name) as f:
            code = f.read()
        exec(code, {"__name__": "__main__"})
    except (simhw.Reset, simhw.HostGone):
        raise
    except SystemExit:
        pass
    except BaseException as e:  # KeyboardInterrupt (Ctrl-C) included, as on a board
        sys.print_exception(e)


def execute(code, scope):
    try:
        exec(code, scope)
    except (simhw.Reset, simhw.HostGone):
        raise
    except BaseException as e:
        return e
    return None


def raw_paste():
    """Raw-paste mode, as a board's REPL has it: the host sends a window of
    bytes at a time and waits for \x01 before the next; \x04 ends it."""
    write(b"R\x01" + bytes([PASTE_WINDOW & 0xFF, PASTE_WINDOW >> 8]))
    code = bytearray()
    while True:
        c = getc()
        if c == 4:
            write(b"\x04")
            return code
        code.append(c)
        if len(code) % PASTE_WINDOW == 0:
            write(b"\x01")


def raw_repl(scope):
    """Returns 'friendly' (Ctrl-B) or 'soft' (Ctrl-D on an empty command)."""
    write(RAW_BANNER)
    while True:
        write(b">")
        line = bytearray()
        while True:
            c = getc()
            if c == 1:  # Ctrl-A: raw-paste request, or a raw REPL reset
                if bytes(line) == b"\x05A":
                    line = None  # raw paste: the command comes with flow control
                    break
                write(RAW_BANNER)
                line = bytearray()
                write(b">")
            elif c == 2:
                write(b"\r\n")
                return "friendly"
            elif c == 3:
                line = bytearray()
            elif c == 4:
                break
            else:
                line.append(c)
        if line is None:
            line = raw_paste()
        elif not line:
            write(b"\r\n")
            return "soft"
        else:
            write(b"OK")
        err = execute(bytes(line), scope)
        write(b"\x04")
        if err is not None:
            sys.print_exception(err)
        write(b"\x04")


def friendly_repl(scope):
    """Returns 'raw' (Ctrl-A) or 'soft' (Ctrl-D)."""
    write(BANNER + b">>> ")
    line = bytearray()
    while True:
        c = getc()
        if c == 1:
            write(b"\r\n")
            return "raw"
        if c == 2:
            write(b"\r\n" + BANNER + b">>> ")
        elif c == 3:
            line = bytearray()
            write(b"\r\n>>> ")
        elif c == 4:
            if not line:
                write(b"\r\n")
                return "soft"
        elif c in (10, 13):
            write(b"\r\n")
            text = bytes(line).decode()
            line = bytearray()
            if text.strip():
                try:
                    value = eval(text, scope)
                    if value is not None:
                        print(repr(value))
                except SyntaxError:
                    err = execute(text, scope)
                    if err is not None:
                        sys.print_exception(err)
                except (simhw.Reset, simhw.HostGone):
                    raise
                except BaseException as e:
                    sys.print_exception(e)
            write(b">>> ")
        elif c in (8, 127):
            if line:
                line = line[:-1]
                write(b"\b \b")
        else:
            line.append(c)
            write(bytes([c]))


def main():
    flash, port, ident = sys.argv[1], int(sys.argv[2]), unhexlify(sys.argv[3])
    simhw.connect(port, ident)
    try:
        os.umount("/")
    except OSError:
        pass
    os.mount(os.VfsPosix(flash), "/")
    os.chdir("/")
    sys.path[:] = ["", "/lib", ".frozen"]
    mode = "friendly"
    boot = True
    while True:
        scope = {"__name__": "__main__"}
        try:
            run_file("boot.py")  # at every reset, soft ones too (rp2's main.c)
            if boot:
                run_file("main.py")
            while True:
                result = raw_repl(scope) if mode == "raw" else friendly_repl(scope)
                if result == "soft":
                    break
                mode = result
        except simhw.HostGone:
            return  # the simulator has gone: no orphan board
        except simhw.Reset:
            # A hard reset (machine.reset(), the watchdog): the board starts again from main.py.
            simhw.hard_reset()
            drop_input()
            mode = "friendly"
            boot = True
            soft_reset()
            continue
        write(b"MPY: soft reboot\r\n")
        soft_reset()
        boot = mode == "friendly"  # from the raw REPL, main.py does not run


main()
