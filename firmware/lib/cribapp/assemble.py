# Builds the board from its files (board.json, layout.json, deploy.json) and
# a hardware edge, the same for MicroPython (main.py) and CircuitPython
# (code.py); cribapp.mainloop runs it. Used once a power-up: the modules
# only building needs are forgotten after it (their code is heap on a
# board). The edge is a small object:
#   button(pin, active_low) -> a zero-argument callable, True while pressed
#   strip(pin, n)           -> a pixel sink (n, [i] = (r, g, b), write())
#   board_id()              -> the board's unique id as hex
#   watchdog_reset()        -> True if the chip's watchdog reset it last (asked once, at power-up:
#                              a hang is logged then, cribapp.crashlog.after_hang)
# and the caller passes the serial stream and the clock.
from cribapp.app import App
from cribapp.boardfiles import deploy_finished, read_json
from cribapp.button import Button, Keypad
from cribapp.codes import ERR_CONFIG, ERR_DEPLOY
from cribapp.compat import forget
from cribapp.render import Renderer
from cribapp.store import FlashFiles, Store
from cribcore.config import BUTTON_NAMES, Config
from cribcore.layout import Layout
from cribcore.layoutfile import standard

# Loaded to build the board and not after: forgotten once it is built.
BOOT_ONLY = (
    "cribapp.assemble",
    "cribcore.config",
    "cribapp.boardfiles",
    "cribapp.restore",
    "cribapp.recovery",
    "cribcore.layoutfile",
)


def parts(root, edge, deploy_checked=False):
    """Config, layout, buttons and strip from the files, and any boot error.
    deploy_checked: the edge has read deploy.json already (cribapp.deploycheck)
    and builds the app only for a finished deploy."""
    data, bad = read_json(root, "board.json")
    config_error = bad or data is None
    try:
        config = Config(data)
    except ValueError:
        config, config_error = Config(), True
    data, bad = read_json(root, "layout.json")
    try:
        layout = Layout(data if data is not None else standard(3 if config.layout == "3-track" else 2))
    except ValueError:
        layout, bad = Layout(standard(2)), True
    config_error = config_error or bad
    buttons = []
    for name in BUTTON_NAMES:
        if name in config.buttons and (name != "P3" or layout.tracks >= 3):
            read = edge.button(config.buttons[name], config.active_low)
            buttons.append(Button(name, read, repeats=name[0] == "P"))
    strip = edge.strip(config.strip_pin, layout.n)
    error = ERR_DEPLOY if not (deploy_checked or deploy_finished(root)) else (ERR_CONFIG if config_error else 0)
    return config, layout, buttons, strip, error


def build(root, edge, stream, clock, deploy_checked=False):
    """The app, attached to its link on stream (None: the caller attaches
    one later); or a SelfTest if OK is held at power-up (the maker's check)."""
    config, layout, buttons, strip, error = parts(root, edge, deploy_checked)
    for b in buttons:
        if b.name == "OK" and b.read():
            from cribapp.selftest import SelfTest  # a maker's check: loaded only when asked for

            return SelfTest(layout, Keypad(buttons), strip, clock)
    app = App(
        layout, Keypad(buttons), Renderer(layout, strip, config), clock, Store(FlashFiles(root)), edge.board_id(), error
    )
    if edge.watchdog_reset() and app.board.up is not None:
        from cribapp import crashlog  # a hang to log: loaded for it, then forgotten

        crashlog.after_hang(app)
        forget("cribapp.crashlog")
    if stream is not None:
        from cribapp.linkwait import LinkWait

        app.attach(LinkWait(stream, app))
    for name in BOOT_ONLY:
        forget(name)
    return app
