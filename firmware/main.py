# Entry point on the board: builds the hardware from board.json and
# layout.json, then runs the app. The only file that touches machine pins.
import json
import time

import machine
import neopixel

from cribapp.app import ERR_CONFIG, ERR_DEPLOY, App
from cribapp.button import Button, Keypad
from cribapp.config import Config
from cribapp.flashfs import FlashFiles
from cribapp.layout import Layout, standard
from cribapp.link import Link
from cribapp.render import Renderer
from cribapp.store import Store

LOOP_MS = 2


def _read_json(files, name):
    """(data, problem): data is None if the file is missing or unreadable."""
    if files.size(name) < 0:
        return None, False
    try:
        f = files.open(name, "r")
        try:
            return json.loads(f.read()), False
        finally:
            f.close()
    except (OSError, ValueError):
        return None, True


def _reader(pin, active_low):
    if active_low:
        return lambda: pin.value() == 0
    return lambda: pin.value() == 1


def _parts(files):
    """Config, layout, buttons and strip from the files, and any boot error."""
    data, bad = _read_json(files, "board.json")
    config_error = bad or data is None
    try:
        config = Config(data)
    except ValueError:
        config, config_error = Config(), True
    data, bad = _read_json(files, "layout.json")
    try:
        layout = Layout(data if data is not None else standard(3 if config.layout == "3-track" else 2))
    except ValueError:
        layout, bad = Layout(standard(2)), True
    config_error = config_error or bad
    deploy, _ = _read_json(files, "deploy.json")
    # A firmware update that stopped half way: say so until it is redone.
    deploy_broken = isinstance(deploy, dict) and deploy.get("state") != "complete"

    pull = machine.Pin.PULL_UP if config.active_low else machine.Pin.PULL_DOWN
    buttons = []
    for name in ("P1", "P2", "P3", "UNDO", "SKUNK", "OK"):
        if name in config.buttons and (name != "P3" or layout.tracks >= 3):
            pin = machine.Pin(config.buttons[name], machine.Pin.IN, pull)
            buttons.append(Button(name, _reader(pin, config.active_low), repeats=name[0] == "P"))
    strip = neopixel.NeoPixel(machine.Pin(config.strip_pin, machine.Pin.OUT), layout.n)
    error = ERR_DEPLOY if deploy_broken else (ERR_CONFIG if config_error else 0)
    return config, layout, buttons, strip, error


def build(root="", stream=None, clock=time):
    """Everything the board needs, from the files under root. Tests pass a
    fake serial stream and clock; on the board they are USB and `time`.
    Returns a SelfTest instead if OK is held at power-up (the maker's check)."""
    files = FlashFiles(root)
    config, layout, buttons, strip, error = _parts(files)
    for b in buttons:
        if b.name == "OK" and b.read():
            from cribapp.selftest import SelfTest  # a maker's check: loaded only when asked for

            return SelfTest(layout, Keypad(buttons), strip, clock)
    board_id = "".join(["%02x" % b for b in machine.unique_id()])
    app = App(layout, Keypad(buttons), Renderer(layout, strip, config), clock, Store(files), board_id, error)
    if stream is None:
        from cribapp.usbstream import UsbStream

        stream = UsbStream()
    app.attach(Link(stream, app))
    return app


def run():
    board = build()
    while not isinstance(board, App):
        while not board.done:
            board.step()
            time.sleep_ms(LOOP_MS)
        board = build()
    try:
        while True:
            board.step()
            time.sleep_ms(LOOP_MS)
    finally:
        board.commit(time.ticks_ms())  # Ctrl-C: keep the points being entered


if __name__ == "__main__":
    run()
