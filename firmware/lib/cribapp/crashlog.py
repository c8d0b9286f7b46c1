# The board's crash log: what an unexpected exception in the loop said, one
# sealed line a crash ("BOOT UPTIME_MS <the traceback as a JSON string>"),
# newest last, never more than MAX_BYTES (the oldest crashes go first), so
# a board that keeps crashing cannot fill its flash. Rewritten whole on
# every change (new file, then renamed over the old): crashes are rare, and
# a torn line is never kept. The host fetches it over the link (CRASHES)
# and clears what it has stored (CRASHES CLEAR N). And what a board does
# when its program crashes (crashed): the traceback goes into the log, the
# crash pattern shows, and the board restarts (or stops restarting if it
# crashes soon after every boot). Loaded only for a crash, a hang found at
# power-up or a host's CRASHES, then forgotten.
import json

from cribapp import render as rc
from cribapp.codes import ERR_CRASH
from cribapp.compat import const
from cribapp.store import replace
from cribcore.seal import seal, unseal

CRASH_LOG = "crash.log"
CRASH_TMP = "crash.tmp"
MAX_BYTES = const(4096)
MAX_TEXT = const(1500)  # characters of a traceback kept: its end, where the error is
LOOP_CRASHES = const(3)  # this many crashes in a row, each soon after its boot: stop restarting
LOOP_MS = const(60000)
CRASH_SHOW_MS = 3000  # how long a crash's pattern shows before the board restarts
_BLINK_MS = const(250)
_SHOWN_MS = const(3000)  # a hang logged at power-up: the crash pattern this long


def _lines(files):
    if files.size(CRASH_LOG) <= 0:
        return []
    f = files.open(CRASH_LOG, "rb")
    try:
        data = f.read()
    finally:
        f.close()
    return [line + b"\n" for line in data.split(b"\n") if line and unseal(line) is not None]


def _write(files, lines):
    if not lines:
        files.remove(CRASH_LOG)
        return
    f = files.open(CRASH_TMP, "wb")
    try:
        for line in lines:
            f.write(line)
        f.flush()
    finally:
        f.close()
    replace(files, CRASH_TMP, CRASH_LOG)


def append(files, boot, uptime_ms, text):
    """Log a crash of boot number `boot`, uptime_ms after the app started;
    the oldest go if the log would pass MAX_BYTES."""
    line = seal("%d %d %s" % (boot, uptime_ms, json.dumps(text[-MAX_TEXT:])))
    lines = _lines(files)
    lines.append(line)
    size = 0
    for one in lines:
        size += len(one)
    while size > MAX_BYTES and len(lines) > 1:
        size -= len(lines.pop(0))
    _write(files, lines)


# What a hang leaves in the log: no traceback (the loop was stuck, not
# raising), so the last time the boot was known to be working: its last save.
WATCHDOG_RESET = "WatchdogReset: the loop stopped; the watchdog restarted the board (last saved %d ms into boot %d)\n"


def after_hang(app):
    """At power-up, when the chip's watchdog reset it: if the last boot was
    still running (its state saved with `up`, not stopped on purpose by
    App.finish), its loop hung. Logged as a crash of that boot, unless it
    logged a crash itself (then the restart was the crash handler's), and
    shown as a crash is; the host fetches it with the crash log. Reads the
    board's fields before its first save replaces them."""
    boot, up = app.board.boot - 1, app.board.up
    if up is None:
        return
    if up < 0:  # a board on for days: its ticks wrapped; a log's uptime is a count
        up = 0
    files = app.store.files
    try:
        found = entries(files)
        if found and found[-1][0] == boot:
            return
        append(files, boot, up, WATCHDOG_RESET % (up, boot))
    except OSError:  # a full flash: the game matters more than the note
        return
    app.warn(ERR_CRASH, app.clock.ticks_ms(), _SHOWN_MS)


def entries(files):
    """[(boot, uptime_ms, text)], oldest first."""
    out = []
    for line in _lines(files):
        whole = unseal(line)
        if whole is None:
            continue
        boot, uptime, text = whole.split(" ", 2)
        out.append((int(boot), int(uptime), json.loads(text)))
    return out


def clear(files, n):
    """Drop the oldest n crashes (the host has stored them)."""
    _write(files, _lines(files)[n:])


def looping(entries, boot):
    """The last LOOP_CRASHES crashes were in consecutive boots ending with
    this one, each within LOOP_MS of its boot: restarting will not help."""
    if len(entries) < LOOP_CRASHES:
        return False
    for k in range(LOOP_CRASHES):
        b, uptime, _ = entries[len(entries) - 1 - k]
        if b != boot - k or uptime > LOOP_MS:
            return False
    return True


def crashed(board, text, pause, watch=None, show_ms=CRASH_SHOW_MS):
    """Log a crash and show it; True if the board should restart, False if
    it has been crashing soon after every boot (then the pattern blinks
    until Ctrl-C: restarting would only wear the flash)."""
    clock = board.clock
    loop = False
    try:
        files = board.store.files
        append(files, board.boot, clock.ticks_diff(clock.ticks_ms(), board.started_at), text)
        loop = looping(entries(files), board.boot)
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
