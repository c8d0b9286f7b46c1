# What a board does when its program crashes: the traceback goes into the
# crash log, the crash pattern shows, and the board restarts (or stops
# restarting if it crashes soon after every boot). Loaded only for a crash.
from cribapp import render as rc
from cribapp.codes import ERR_CRASH

CRASH_SHOW_MS = 3000
_BLINK_MS = 250


def crashed(board, text, pause, watch=None, show_ms=CRASH_SHOW_MS):
    """Log a crash and show it; True if the board should restart, False if
    it has been crashing soon after every boot (then the pattern blinks
    until Ctrl-C: restarting would only wear the flash)."""
    clock = board.clock
    loop = False
    try:
        from cribapp import crashlog

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
