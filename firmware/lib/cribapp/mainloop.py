# The board's loop, for either edge (main.py, code.py): step the board and
# pause between passes; a crash is logged, shown and the board restarted.
from cribapp.app import App


def run(build, pause, describe=None, restart=None, watchdog=None, collect=None, connect=None):
    """The board's loop, for either edge: build() the board (a self-test
    first if OK is held, then the app), step it and pause() between passes.
    On Ctrl-C the points being entered are kept. An unexpected exception in
    the loop is logged on the flash (describe(e): its traceback as text),
    shown, and the board restarted (restart()); every change was saved as it
    happened, so the game goes on where it was. Without restart (tests), it
    is raised. watchdog() starts the edge's watchdog once the app runs and
    gives its LoopWatch (or None where the board has none). collect()
    (gc.collect) runs after each pass that changed what the board shows,
    once it is drawn (the first pass too): the garbage of booting, of a
    press or a save is gone before the next press, so no press waits for a
    collection, and blinking and idle passes make none. connect(app)
    attaches the serial link after the first frame, where an edge builds
    the app without one (so the link's modules load after the board shows
    its score)."""
    board = build()
    while not isinstance(board, App):
        while not board.done:
            board.step()
            pause()
        board = build()
    watch = None
    shown = -1  # the board's version last collected after
    try:
        while True:
            board.step()
            if watch is not None:
                watch.alive()
            elif watchdog is not None:  # started once the first frame is out
                watch = watchdog()
                watchdog = None
            if connect is not None:
                connect(board)
                connect = None
            if board.version != shown:
                shown = board.version
                if collect is not None:
                    collect()
            pause()
    except KeyboardInterrupt:
        if watch is not None:
            watch.rest()  # at the REPL on purpose: no restart
        board.finish()
        raise
    except Exception as e:  # a bug: the board must not freeze on it
        if restart is None or describe is None:
            raise
        try:
            from cribapp.crashlog import crashed  # loaded only for a crash
        except Exception:  # no heap left even to load it: restart all the same
            restart()
            return
        if crashed(board, describe(e), pause, watch):
            restart()
