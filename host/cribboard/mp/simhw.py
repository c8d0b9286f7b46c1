# The simulated board's hardware link (runs under MicroPython): button levels
# come in from the host over a local socket, LED frames go out on it.
import select
import socket
import sys
from binascii import hexlify

try:
    from time import sleep_ms, ticks_add, ticks_diff, ticks_ms
except ImportError:  # the CPython stand-in board (cpython_board.py): the app's ticks, wrap-around included
    import time

    from cribapp.compat import ticks_add, ticks_diff, ticks_ms

    def sleep_ms(ms):
        time.sleep(ms / 1000)


_EAGAIN = 11  # errno: a non-blocking socket has nothing for us yet
_STUCK_MS = 5000

levels = {}  # pin -> level; an unset pin reads high (pulled up, not pressed)
board_id = b"\x00" * 8
_sock = None
_writable = None
_buf = b""
# Changes wait their turn: a press and its release that arrive together
# (the host was quick, or this process was slow to run) must still be seen
# by the debouncer as a press.
_queue = []  # (pin, level, ms to hold it, id to acknowledge)
# The change being held. A chip reads a button hundreds of times while a
# finger holds it; this process may be stopped by the OS for longer than a
# tap, and a level set and cleared between two of the firmware's reads
# would be lost. So a change is made when the firmware reads its pin, and
# it holds until the firmware has read that pin at least its time later,
# and then once more: the firmware takes the time once a pass, before it
# reads the pins, so only a pass begun after that read has seen the level
# for its time (whatever the OS stopped meanwhile). The read after that,
# a pass later again (each pin is read once a pass), is when the firmware
# has drawn and saved what it made of it: the host is told ("A").
_pin = None  # its pin (None: no change held)
_at = 0  # when it was made (ticks)
_hold = 0  # how long it holds
_ident = b""  # the id to acknowledge
_reads = 0  # reads of its pin since its time was up: 1, then 2 (decided), then acknowledged
_heard_at = None  # ticks of the last look at the host and the timers


class Reset(BaseException):
    """The chip resets (machine.reset(), or its watchdog): the board starts
    again from main.py. Not an Exception: on a chip nothing after a reset
    runs, so no `except Exception` in the firmware may catch it."""


class HostGone(BaseException):
    """The simulator that runs this board has gone (stopped, or killed with
    SIGKILL): so does the board, rather than run on as an orphan. Not an
    Exception, so the firmware's crash handler lets it through."""


# The chip's soft timers and watchdog (machine.Timer, machine.WDT). A chip
# runs them from interrupts; here they run whenever the board's code reads a
# pin (poll) or waits on its serial line (wait_input), each timer at the
# moment it was due, in order, so a watchdog is fed at the moments it would
# have been. A Python loop that does neither is not restarted here: that
# hang is tested on the fake clock (tests/firmware/test_fw_watchdog.py).
timers = []  # machine.Timer objects running: each has .due (ticks), .period (ms, 0: once) and .fire()
_wdt_timeout = 0  # ms; 0: the watchdog was never started since the last hard reset
_fed_at = 0
_now = None  # while a timer fires: the moment it was due (what a feed records)
_waiter = None  # wait_input's poll: the serial line and the host's socket
reset_cause = 1  # machine.PWRON_RESET: this process is a power-up
wifi = True  # the club's WiFi in range (the host says "W 0" / "W 1"): cribboard.mp.network


# A chip runs all the time; this process runs when the OS lets it. A busy
# machine can stop it for seconds: waiting for a CPU, for a disk other
# programs fill (its flash is files), or stopped outright. The chip would
# not have seen that time pass: a stalled process is not a hung board. So
# a gap of over a second between two looks at the hardware (service()),
# beyond any wait the board asked for, moves the timers and the watchdog
# on by as much of it as this process was not running on a CPU (Linux's
# /proc/self/schedstat, read at most twice a second). A board whose Python
# loop runs without a pass is still bitten: that time is the CPU's. So is
# one that keeps reading its pins and makes no progress (its passes stop,
# so the feeding timer stops feeding), and a hung core ("Z"). Where
# schedstat cannot be read, the whole gap is skipped.
_GAP_MS = 1000  # the running loop looks every few ms; the REPL's wait says how long it sleeps
_STAT_EVERY_MS = 500
_looked_at = None  # ticks of the last look (None: none yet)
_asleep_ms = 0  # how long the board said it would wait after it (-1: until input, however long)
_ran_ns = None  # this process's time on a CPU, as last read (None: not read, or unreadable)
_stat_at = 0  # ticks when it was read
skipped_ms = 0  # stalls skipped since this process started (the watchdog's report says)


def _read_ran_ns():
    try:
        with open("/proc/self/schedstat") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None  # not Linux, or no scheduler statistics


def _skip_stall(now):
    global _looked_at, _asleep_ms, _ran_ns, _stat_at, _fed_at, skipped_ms
    last, slept = _looked_at, _asleep_ms
    _looked_at, _asleep_ms = now, 0
    if last is None or ticks_diff(now, _stat_at) >= _STAT_EVERY_MS:
        ran_before, _ran_ns, _stat_at = _ran_ns, _read_ran_ns(), now
    else:
        ran_before = _ran_ns
    if last is None or slept < 0:
        return
    gap = ticks_diff(now, last) - slept
    if gap <= _GAP_MS:
        return
    if ran_before is None or _ran_ns is None:
        shift = gap
    else:
        shift = gap - (_ran_ns - ran_before) // 1000000
    if shift > 0:
        for t in timers:
            t.due = ticks_add(t.due, shift)
        _fed_at = ticks_add(_fed_at, shift)
        skipped_ms += shift


def stalls():
    """The stalls skipped, all told, in ms, counting one that ends now (the CircuitPython board's
    watchdog, cribboard/cp/watchdog.py, skips them too)."""
    _skip_stall(ticks_ms())
    return skipped_ms


def watchdog_start(timeout_ms):
    global _wdt_timeout
    _wdt_timeout = timeout_ms
    watchdog_feed()


def watchdog_feed():
    global _fed_at
    _fed_at = ticks_ms() if _now is None else _now


def _bitten(at):
    return _wdt_timeout and ticks_diff(at, _fed_at) > _wdt_timeout


def service():
    """Fire the timers that are due, in order, each at its own moment, and
    reset the board if the watchdog was left unfed past its timeout at any
    of them. Returns ms until the next timer or the watchdog is due (-1:
    nothing is). Called at every pin read: it allocates nothing but when
    it reads schedstat (twice a second)."""
    global _now
    now = ticks_ms()
    _skip_stall(now)
    while True:
        timer = None
        for t in timers:
            if ticks_diff(now, t.due) >= 0 and (timer is None or ticks_diff(t.due, timer.due) < 0):
                timer = t
        if timer is None:
            break
        if _bitten(timer.due):
            _bite(timer.due)
        _now = timer.due
        try:
            timer.fire()
        finally:
            _now = None
    if _bitten(now):
        _bite(now)
    wait = -1
    for t in timers:
        left = ticks_diff(t.due, now)
        if wait < 0 or left < wait:
            wait = left
    if _wdt_timeout:
        left = _wdt_timeout + 1 - ticks_diff(now, _fed_at)
        if wait < 0 or left < wait:
            wait = left
    return wait


def _bite(at):
    """The watchdog resets the chip (the board's runner then calls
    hard_reset()). Its log says why, for whoever reads it after a failure."""
    sys.stderr.write(
        "watchdog: unfed for %d ms of the chip's time; %d ms of this process's stalls skipped so far\n"
        % (ticks_diff(at, _fed_at), skipped_ms)
    )
    raise Reset()


def hard_reset():
    """What a chip's reset clears: its timers, its watchdog, its buttons'
    changes; the host is told ("R"). Every reset here goes through rp2's
    watchdog (its timeout, or machine.reset()): machine.WDT_RESET."""
    global _wdt_timeout, reset_cause
    del timers[:]
    _wdt_timeout = 0
    reset_cause = 3
    drop_presses()
    if _sock is not None:
        _send(b"R\n")


def soft_reset():
    """A soft reset ends the soft timers; the watchdog runs on (rp2)."""
    del timers[:]
    drop_presses()


def wait_input(stream):
    """Wait until the serial line (stream) has input, running the timers and
    the watchdog meanwhile, and hearing the host's hardware socket: a hang
    ("Z") stops a board at its REPL too, and a host that has gone ends it.
    Button changes wait for the program to read the pins."""
    global _waiter, _asleep_ms
    if _waiter is None:
        _waiter = select.poll()
        _waiter.register(stream, select.POLLIN)
        if _sock is not None:
            _waiter.register(_sock, select.POLLIN)
    while True:
        wait = service()
        _asleep_ms = wait
        for obj, _event in _waiter.poll(wait):
            if obj is stream:
                return
            _take()


def _hang():
    """A test's fault ("Z"): the core stops, interrupts and all. Nothing
    runs, no timer fires; only the watchdog counts, and resets the board
    once its timeout is up (a board whose watchdog never started stays
    hung). The host's button changes meanwhile are lost."""
    while True:
        _drain_host()
        now = ticks_ms()
        if _bitten(now):
            _bite(now)
        sleep_ms(10)


def _take():
    """Read what the host has sent: button changes join the queue, "Z" hangs
    the board; HostGone once the host has gone."""
    global _buf, wifi
    while True:
        data = _recv()
        if data is None:
            return  # nothing new
        _buf += data
        while b"\n" in _buf:
            line, _buf = _buf.split(b"\n", 1)
            parts = line.split()
            if parts == [b"Z"]:
                _buf = b""
                _hang()
            if len(parts) == 2 and parts[0] == b"W":  # "W 1" / "W 0": the club's WiFi in range or gone
                wifi = parts[1] == b"1"
            if 3 <= len(parts) <= 4 and parts[0] in (b"D", b"U") and parts[2].isdigit():
                # "D|U PIN HOLD_MS [ID]": a GPIO number or a CircuitPython
                # pin name ("D5"), how long to hold the level on the board's
                # clock (the host's to say: cribboard.sim.hwlink), and the id
                # the host wants back in "A ID" once the change has been seen.
                pin = int(parts[1]) if parts[1].isdigit() else parts[1].decode()
                hold = int(parts[2])
                ident = parts[3] if len(parts) == 4 else b""
                _queue.append((pin, 0 if parts[0] == b"D" else 1, hold, ident))


def _drain_host():
    """Read and drop what the host sends (a hung chip sees no button)."""
    while _recv() is not None:
        pass


def _recv():
    """What the host has sent since the last look, or None if nothing;
    HostGone once the simulator has closed its end (or died)."""
    try:
        data = _sock.recv(256)
    except OSError as e:
        if e.args and e.args[0] == _EAGAIN:
            return None
        raise HostGone() from None
    if not data:
        raise HostGone()
    return data


def connect(port, ident):
    global _sock, board_id, _writable
    board_id = ident
    s = socket.socket()
    s.connect(socket.getaddrinfo("127.0.0.1", port)[0][-1])
    s.setblocking(False)
    _sock = s
    _writable = select.poll()
    _writable.register(s, select.POLLOUT)


def poll(pin=None):
    """Hear the host and fire the timers due, once a millisecond (a pass
    reads its five pins within one: a look at each read was five socket
    reads a pass); then, if pin (the one the firmware is reading) is the
    held change's or the next one's, move it on (see _pin above)."""
    global _pin, _at, _hold, _ident, _reads, _heard_at
    if _sock is None:
        return
    now = ticks_ms()
    if now != _heard_at:
        _heard_at = now
        service()
        _take()
        now = ticks_ms()  # (a timer may have run)
    if pin is None:
        return
    if _pin is not None:
        if pin != _pin:
            return
        if _reads == 0 and ticks_diff(now, _at) < _hold:
            return
        if _reads < 2:
            _reads += 1
            return
        _send(b"A " + _ident + b"\n")
        _pin = None
    if _queue and _queue[0][0] == pin:
        _pin, level, _hold, _ident = _queue.pop(0)
        levels[pin] = level
        _at = now
        _reads = 0


def drop_presses():
    """A reset: button changes sent while the program was not running
    are not pressed later (the host was told the board did not take them)."""
    global _pin
    del _queue[:]
    _pin = None
    levels.clear()  # every button up


def frame(buf):
    """Send the strip's bytes (GRB, as the driver holds them) to the host."""
    if _sock is not None:
        _send(b"F " + hexlify(buf) + b"\n")


def _send(data):
    view = memoryview(data)
    sent = 0
    while sent < len(data):
        try:
            n = _sock.send(view[sent:])
        except OSError as e:
            if not (e.args and e.args[0] == _EAGAIN):
                raise HostGone() from None
            n = 0
        sent += n or 0
        if sent < len(data) and not _writable.poll(_STUCK_MS):
            raise HostGone()  # a host that reads nothing for this long is gone, or hung
