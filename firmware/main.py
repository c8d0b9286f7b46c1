# Entry point on the board: builds the hardware from board.json and
# layout.json, then runs the app. The only file that touches machine pins.
# The app is imported only inside build(): if a deploy was cut off and the
# app cannot start, this file still shows the deploy-error pattern with
# nothing but built-in modules, and `cribboard flash` can still take over.
import json
import select
import sys
import time

import machine
import neopixel

LOOP_MS = 2
DEPLOY_ERROR_LEDS = 6  # the deploy-error pattern (cribapp.app.ERR_DEPLOY): six LEDs blink red
_BLINK_MS = 500
_RED = (80, 0, 0)
_DARK = (0, 0, 0)


def _path(root, name):
    return root + "/" + name if root else name


def _read_json(root, name):
    """(data, problem): data is None if the file is missing or unreadable."""
    try:
        f = open(_path(root, name))
    except OSError:
        return None, False
    try:
        return json.loads(f.read()), False
    except (OSError, ValueError):
        return None, True
    finally:
        f.close()


def deploy_finished(root=""):
    """False if the last `cribboard flash` stopped half way: deploy.json says
    "incomplete" or was itself cut off. No deploy.json: installed another way."""
    data, bad = _read_json(root, "deploy.json")
    if data is None:
        return not bad
    return isinstance(data, dict) and data.get("state") == "complete"


def _reader(pin, active_low):
    if active_low:
        return lambda: pin.value() == 0
    return lambda: pin.value() == 1


def _parts(root):
    """Config, layout, buttons and strip from the files, and any boot error."""
    from cribapp.app import ERR_CONFIG, ERR_DEPLOY
    from cribapp.button import Button
    from cribapp.config import Config
    from cribapp.layout import Layout, standard

    data, bad = _read_json(root, "board.json")
    config_error = bad or data is None
    try:
        config = Config(data)
    except ValueError:
        config, config_error = Config(), True
    data, bad = _read_json(root, "layout.json")
    try:
        layout = Layout(data if data is not None else standard(3 if config.layout == "3-track" else 2))
    except ValueError:
        layout, bad = Layout(standard(2)), True
    config_error = config_error or bad

    pull = machine.Pin.PULL_UP if config.active_low else machine.Pin.PULL_DOWN
    buttons = []
    for name in ("P1", "P2", "P3", "UNDO", "SKUNK", "OK"):
        if name in config.buttons and (name != "P3" or layout.tracks >= 3):
            pin = machine.Pin(config.buttons[name], machine.Pin.IN, pull)
            buttons.append(Button(name, _reader(pin, config.active_low), repeats=name[0] == "P"))
    strip = neopixel.NeoPixel(machine.Pin(config.strip_pin, machine.Pin.OUT), layout.n)
    error = ERR_DEPLOY if not deploy_finished(root) else (ERR_CONFIG if config_error else 0)
    return config, layout, buttons, strip, error


def build(root="", stream=None, clock=time):
    """Everything the board needs, from the files under root. Tests pass a
    fake serial stream and clock; on the board they are USB and `time`.
    Returns a SelfTest instead if OK is held at power-up (the maker's check)."""
    from cribapp.app import App
    from cribapp.button import Keypad
    from cribapp.flashfs import FlashFiles
    from cribapp.link import Link
    from cribapp.render import Renderer
    from cribapp.store import Store

    config, layout, buttons, strip, error = _parts(root)
    for b in buttons:
        if b.name == "OK" and b.read():
            from cribapp.selftest import SelfTest  # a maker's check: loaded only when asked for

            return SelfTest(layout, Keypad(buttons), strip, clock)
    board_id = "".join(["%02x" % b for b in machine.unique_id()])
    app = App(layout, Keypad(buttons), Renderer(layout, strip, config), clock, Store(FlashFiles(root)), board_id, error)
    if stream is None:
        from cribapp.usbstream import UsbStream

        stream = UsbStream()
    app.attach(Link(stream, app))
    return app


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
    deploy-error pattern on track 1's game-point LEDs (the strip's first six
    if even the layout code is unreadable) until Ctrl-C (cribboard flash) or
    a reset. Tests give blinks >= 0 and their own wait(ms)."""
    board, _ = _read_json(root, "board.json")
    layout, _ = _read_json(root, "layout.json")
    pin = board.get("strip_pin", 0) if isinstance(board, dict) else 0
    n = layout.get("leds", 0) if isinstance(layout, dict) else 0
    if not isinstance(pin, int) or not isinstance(n, int) or n < DEPLOY_ERROR_LEDS:
        pin, n = 0, DEPLOY_ERROR_LEDS
    leds = range(DEPLOY_ERROR_LEDS)
    try:
        from cribapp.layout import Layout

        leds = Layout(layout).points[0][:DEPLOY_ERROR_LEDS]
    except Exception:  # any failure: the layout code may be half deployed
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
    if deploy_finished():
        raise e
    sys.print_exception(e)
    show_deploy_error()


def run():
    try:
        from cribapp.app import App

        board = build()
        while not isinstance(board, App):
            while not board.done:
                board.step()
                time.sleep_ms(LOOP_MS)
            board = build()
    except Exception as e:  # not KeyboardInterrupt: Ctrl-C must reach the REPL
        _cannot_start(e)
        return
    try:
        while True:
            board.step()
            time.sleep_ms(LOOP_MS)
    except Exception as e:
        _cannot_start(e)
    finally:
        board.commit(time.ticks_ms())  # Ctrl-C: keep the points being entered


if __name__ == "__main__":
    run()
