# Builds the board from its files (board.json, layout.json, deploy.json) and
# a hardware edge, the same for MicroPython (main.py) and CircuitPython
# (code.py). The edge is a small object:
#   button(pin, active_low) -> a zero-argument callable, True while pressed
#   strip(pin, n)           -> a pixel sink (n, [i] = (r, g, b), write())
#   board_id()              -> the board's unique id as hex
# and the caller passes the serial stream and the clock.
from cribapp import render as rc
from cribapp.app import App
from cribapp.boardfiles import deploy_finished, read_json
from cribapp.button import Button, Keypad
from cribapp.codes import ERR_CONFIG, ERR_CRASH, ERR_DEPLOY
from cribapp.config import BUTTON_NAMES, Config
from cribapp.flashfs import FlashFiles
from cribapp.layout import Layout, standard
from cribapp.link import Link
from cribapp.render import Renderer
from cribapp.store import Store


def parts(root, edge):
    """Config, layout, buttons and strip from the files, and any boot error."""
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
    error = ERR_DEPLOY if not deploy_finished(root) else (ERR_CONFIG if config_error else 0)
    return config, layout, buttons, strip, error


def build(root, edge, stream, clock):
    """The app, attached to its link; or a SelfTest if OK is held at power-up
    (the maker's check)."""
    config, layout, buttons, strip, error = parts(root, edge)
    for b in buttons:
        if b.name == "OK" and b.read():
            from cribapp.selftest import SelfTest  # a maker's check: loaded only when asked for

            return SelfTest(layout, Keypad(buttons), strip, clock)
    app = App(layout, Keypad(buttons), Renderer(layout, strip, config), clock, Store(FlashFiles(root)),
              edge.board_id(), error)
    app.attach(Link(stream, app))
    return app


def run(build, pause, describe=None, restart=None, watchdog=None):
    """The board's loop, for either edge: build() the board (a self-test
    first if OK is held, then the app), step it and pause() between passes.
    On Ctrl-C the points being entered are kept. An unexpected exception in
    the loop is logged on the flash (describe(e): its traceback as text),
    shown, and the board restarted (restart()); every change was saved as it
    happened, so the game goes on where it was. Without restart (tests), it
    is raised. watchdog() starts the edge's watchdog once the app runs and
    gives its LoopWatch (or None where the board has none)."""
    board = build()
    while not isinstance(board, App):
        while not board.done:
            board.step()
            pause()
        board = build()
    watch = watchdog() if watchdog is not None else None
    try:
        while True:
            board.step()
            if watch is not None:
                watch.alive()
            pause()
    except KeyboardInterrupt:
        if watch is not None:
            watch.rest()  # at the REPL on purpose: no restart
        board.commit(board.clock.ticks_ms())
        raise
    except Exception as e:  # a bug: the board must not freeze on it
        if restart is None or describe is None:
            raise
        if crashed(board, describe(e), pause, watch):
            restart()


CRASH_SHOW_MS = 3000
_BLINK_MS = 250


def crashed(board, text, pause, watch=None, show_ms=CRASH_SHOW_MS):
    """Log a crash and show it; True if the board should restart, False if
    it has been crashing soon after every boot (then the pattern blinks
    until Ctrl-C: restarting would only wear the flash)."""
    clock = board.clock
    loop = False
    try:
        from cribapp import crashlog  # loaded only for a crash

        files = board.store.files
        crashlog.append(files, board.boot, clock.ticks_diff(clock.ticks_ms(), board.started_at), text)
        loop = crashlog.looping(crashlog.entries(files), board.boot)
    except Exception:  # the flash itself failed: show it and restart all the same
        pass
    start = clock.ticks_ms()
    while loop or clock.ticks_diff(clock.ticks_ms(), start) < show_ms:
        try:
            r = board.renderer
            r.begin()
            if (clock.ticks_ms() // _BLINK_MS) & 1:
                r.points(0, ERR_CRASH, rc.ERROR)
            r.finish()
        except Exception:  # the strip's own code may be what failed
            pass
        if watch is not None:
            watch.alive()  # showing the crash is progress, not a hang
        pause()
    return True
