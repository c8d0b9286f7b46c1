# Deploying the firmware with mpremote's own transport and file operations.
# A deploy must never brick a board, wherever it is cut off:
# - deploy.json says "incomplete" before the first file changes and
#   "complete" only after the last, so main.py knows a deploy stopped half way
#   (and shows the deploy-error pattern even if the app cannot import);
# - each file goes to NAME.new, is checked by its SHA-256 on the board, then
#   renamed over NAME: a file is old or new, never torn;
# - main.py goes last, and only files whose hash differs are written.
# The board's .mpy version is read first: bytecode it cannot load is refused.
import contextlib
import hashlib
import io
import json
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cribboard.deploy.firmware_files import FlashError, build, mpy_cross_version
from cribboard.text.i18n import _
from cribboard.text.quote import clip
from cribboard.waits import link_wait
from cribcore import __version__

MANIFEST = "deploy.json"
PACKAGES = ("cribcore", "cribapp", "cribclub", "cribmp")
NEW = ".new"  # suffix of a file being written
MIN_MICROPYTHON = (1, 22)


@dataclass
class Deployed:
    port: str
    files: int  # files the board holds for the firmware
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    bytecode: bool = True
    previous: str | None = None  # the last deploy's state, if it had not finished

    def as_dict(self) -> dict[str, Any]:
        return {
            "port": self.port,
            "files": self.files,
            "written": self.written,
            "removed": self.removed,
            "bytecode": "mpy" if self.bytecode else "py",
            "previous_deploy": self.previous,
        }


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# mpremote's waits suit a real board, which answers in milliseconds: pyserial's
# read timeout, a wait between characters, a wait for the raw REPL. A board that
# answers after mpremote has moved on (a simulated one on a busy machine) leaves
# it out of step with the REPL for good, reading a late "R\x01" as the answer to
# the next command, say. So each stretches to CRIBBOARD_LINK_WAIT, never shrinks.
READ_TIMEOUT_S = 5
CHAR_WAIT_S = 10  # mpremote's own
# A board still restarting (after the last flash, say) drops what it is sent
# while it is off the bus, Ctrl-C among it: asked again once it is back.
REPL_TRIES = 2
REPL_WAIT_S = 5
OWED_MOST = 8  # answers a board may still owe to earlier commands before the one that puts it in step


def board_wait(least: float) -> float:
    """A wait for the board: mpremote's, or CRIBBOARD_LINK_WAIT where that is longer."""
    return max(least, link_wait())


def patient_transport(device: str) -> Any:
    """mpremote's SerialTransport, its wait between characters at least board_wait's."""
    from mpremote.transport_serial import SerialTransport

    char_wait = board_wait(CHAR_WAIT_S)

    class PatientTransport(SerialTransport):
        def read_until(
            self,
            min_num_bytes: int,
            ending: bytes,
            timeout: float | None = CHAR_WAIT_S,
            data_consumer: Callable[[bytes], None] | None = None,
            timeout_overall: float | None = None,
        ) -> bytes:
            # None: no wait between characters at all (typed Any: mpremote's default, 10, says int)
            wait: Any = None if timeout is None else max(timeout, char_wait)
            return super().read_until(min_num_bytes, ending, wait, data_consumer, timeout_overall)

    return PatientTransport(device, baudrate=115200, timeout=board_wait(READ_TIMEOUT_S))


def _printed(said: io.StringIO) -> str:
    """What mpremote printed when it failed: the bytes it read, without their repr's b'...'."""
    got = said.getvalue().strip()
    return got[2:-1] if got.startswith(("b'", 'b"')) else got


class ReplBoard:
    """One board at its raw REPL, through mpremote's SerialTransport."""

    def __init__(self, port: str):
        from mpremote.transport import TransportError

        self.port = port
        self._errors = (TransportError, OSError)
        self._dirs: set[str] = set()  # folders known to be on the board
        # A link to a pty (cribboard sim --link) is opened as the pty itself: mpremote
        # reads a device it knows is a pty without pausing 10 ms between bytes.
        device = os.path.realpath(port) if os.path.exists(port) else port
        try:
            # A read timeout: mpremote reads a pty byte by byte with pyserial's
            # timeout, and with none a silent port would hang it for good.
            self.t = patient_transport(device)
        except self._errors:
            raise FlashError(
                _("cannot open %s: is the board plugged in, and no other program using it?") % port
            ) from None
        said, error = io.StringIO(), None
        for _attempt in range(REPL_TRIES):
            said = io.StringIO()
            try:
                with contextlib.redirect_stdout(said):  # mpremote prints what it got when it fails: kept
                    # Ctrl-C stops the app and no soft reset follows: a soft reset would
                    # end the timer that feeds the app's watchdog, which nothing stops on
                    # an RP2040, and the board would reset under us 8 s later.
                    self.t.enter_raw_repl(soft_reset=False, timeout_overall=board_wait(REPL_WAIT_S))
                    self._in_step()
                return
            except self._errors as e:
                error = e
        self.close()
        got = _printed(said)
        heard = _("it sent nothing") if not got else _("it sent %s") % clip(got)
        raise FlashError(
            _("%(port)s does not answer as a MicroPython board (%(error)s; %(heard)s)")
            % {"port": port, "error": error, "heard": heard}
        )

    def _in_step(self) -> None:
        """Read away what the board still owes to earlier bytes, up to the answer of a command sent now.
        A board that answers a try's Ctrl-A only after the next try has begun (stopped, or restarting,
        for longer than a try's wait) sends two raw-REPL banners: mpremote takes the first, and the
        second's text for the answer to its next command (a late "R\\x01" read as a command's answer).
        The board takes its input in order, so everything it sends before this command's own answer
        is owed to what came before, and is dropped; the raw REPL's ">" after it is left for mpremote."""
        from mpremote.transport import TransportError

        mark = "in step %s" % secrets.token_hex(6)
        self.t.serial.write(("print(%r)" % mark).encode() + b"\x04")  # the raw REPL, not raw paste
        data = b""
        for _answer in range(OWED_MOST):  # an answer: its output, \x04, no error, \x04 (an echo has none)
            got = self.t.read_until(1, b"\n\x04\x04")
            data += got
            if not got.endswith(b"\n\x04\x04"):
                break
            if got[:-3].rstrip(b"\r").endswith(mark.encode()):  # a line ends "\r\n" on a chip, "\n" here
                return
        print(data)  # what it sent instead, for the error (as mpremote's own failures print it)
        raise TransportError("no answer in the raw REPL")

    def call(self, what: str, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        said = io.StringIO()
        try:
            with contextlib.redirect_stdout(said):  # what mpremote prints of the bytes it read, when it fails
                return fn(*args, **kw)
        except FileNotFoundError:
            raise
        except self._errors as e:
            why = str(e).strip()[-300:]
            got = _printed(said)
            if got:  # what the board sent instead of what mpremote waited for
                why = "%s; %s" % (why, _("it sent %s") % clip(got))
            raise FlashError(_("%s failed on the board: %s") % (what, why)) from None

    def implementation(self) -> tuple[str, tuple[int, ...], int]:
        """(name, version, sys.implementation._mpy or 0) of the board's Python."""
        what = _("reading the version")
        self.call(what, self.t.exec, "import sys")
        name = self.call(what, self.t.eval, "sys.implementation.name")
        version = tuple(self.call(what, self.t.eval, "tuple(sys.implementation.version)"))
        mpy = self.call(what, self.t.eval, "getattr(sys.implementation, '_mpy', 0)")
        return name, version, mpy

    def has_network(self) -> bool:
        """Whether the board's MicroPython has WiFi (a `network` module: a Pico W's, an ESP32's)."""
        from mpremote.transport import TransportExecError

        try:
            self.t.exec("import network")
        except TransportExecError:
            return False
        except self._errors as e:
            raise FlashError(
                _("%s failed on the board: %s") % (_("asking whether it has WiFi"), str(e).strip()[-300:])
            ) from None
        return True

    def hash(self, path: str) -> str | None:
        try:
            return self.call(_("hashing %s") % path, self.t.fs_hashfile, path, "sha256").hex()
        except FileNotFoundError:
            return None

    def read(self, path: str) -> bytes | None:
        try:
            return bytes(self.call(_("reading %s") % path, self.t.fs_readfile, path))
        except FileNotFoundError:
            return None

    def listdir(self, path: str) -> list[str]:
        try:
            return [e.name for e in self.call(_("listing %s") % path, self.t.fs_listdir, path)]
        except FileNotFoundError:
            return []

    def mkdirs(self, path: str) -> None:
        parts = path.split("/")
        for k in range(1, len(parts) + 1):
            d = "/".join(parts[:k])
            if d not in self._dirs and not self.call(_("checking %s") % d, self.t.fs_isdir, d):
                self.call(_("making %s") % d, self.t.fs_mkdir, d)
            self._dirs.add(d)

    def write(self, path: str, data: bytes, progress: Callable[[int], None]) -> None:
        """Write, check, then rename into place: path is old or new, never torn."""
        if "/" in path:
            self.mkdirs(path.rsplit("/", 1)[0])
        done = [0]

        def moved(written: int, _total: int) -> None:
            progress(written - done[0])
            done[0] = written

        self.call(_("writing %s") % path, self.t.fs_writefile, path + NEW, data, progress_callback=moved)
        if self.hash(path + NEW) != sha256(data):
            raise FlashError(_("%s did not arrive intact (run flash again)") % path)
        # LittleFS renames over a file; FAT (ESP32 ports) needs it removed first.
        self.call(
            _("renaming %s") % path,
            self.t.exec,
            "import os\ntry:\n os.rename(%r, %r)\nexcept OSError:\n os.remove(%r)\n os.rename(%r, %r)"
            % (path + NEW, path, path, path + NEW, path),
        )

    def remove(self, path: str) -> None:
        try:
            self.call(_("removing %s") % path, self.t.fs_rmfile, path)
        except FileNotFoundError:
            pass  # a .new leftover that a later write already renamed

    def reset(self) -> None:
        try:
            self.t.exec_raw_no_follow("import time, machine\ntime.sleep_ms(100)\nmachine.reset()")
        except self._errors:
            pass  # the board is already restarting

    def close(self) -> None:
        try:
            self.t.close()
        except OSError:
            pass


def _check_bytecode(name: str, version: tuple[int, ...], mpy: int, source: bool) -> None:
    if name != "micropython":
        raise FlashError(
            _("the board runs %s, not MicroPython: install MicroPython on it first (see hardware/README.md)") % name
        )
    shown = ".".join(str(v) for v in version[:3])
    if tuple(version[:2]) < MIN_MICROPYTHON:
        raise FlashError(
            _("the board runs MicroPython %s; Cribboard needs %d.%d or newer: update it") % ((shown,) + MIN_MICROPYTHON)
        )
    if source:
        return
    ours = mpy_cross_version()
    if mpy & 0xFF != ours:
        raise FlashError(
            _(
                "the board's MicroPython %s loads .mpy version %d, but this mpy-cross makes version %d: "
                "update MicroPython or install the mpy-cross that matches it, or flash --source "
                "to copy the .py files instead"
            )
            % (shown, mpy & 0xFF, ours)
        )


def error_pattern(files: list[tuple[str, bytes]]) -> dict[str, Any]:
    """Where main.py blinks the deploy-error pattern when it must not load
    the app to find out: the strip's pin and length, and track 1's first
    six game-point LEDs, from the pin map and layout being deployed."""
    from cribcore.config import Config
    from cribcore.layout import Layout

    data = dict(files)
    config = Config(json.loads(data["board.json"]))
    layout = Layout(json.loads(data["layout.json"]))
    return {"pin": config.strip_pin, "leds": layout.n, "lit": list(layout.points[0][:6])}


def flash(
    port: str,
    board: str = "pico",
    layout: str | None = None,
    source: bool = False,
    step: Callable[[str], None] = lambda s: None,
    progress: Callable[[int], None] = lambda n: None,
    plan: Callable[[int], None] = lambda n: None,
) -> Deployed:
    """Deploy and check. step(text) before each step; plan(total bytes) once
    the changed files are known; progress(bytes) as they go."""
    # The board first: a port with no MicroPython behind it fails in seconds, before the compile.
    step(
        _("connecting to %s (stopping its program for the REPL: up to %d s)")
        % (port, REPL_TRIES * board_wait(REPL_WAIT_S))
    )
    b = ReplBoard(port)
    try:
        _check_bytecode(*b.implementation(), source)
        files = build(board, layout, source, wifi=b.has_network())
        step(_("comparing the board's files"))
        last = b.read(MANIFEST)
        try:
            previous = json.loads(last) if last is not None else {"state": None}  # never flashed by us
        except ValueError:
            previous = {"state": "torn"}
        prev_state = previous.get("state") if isinstance(previous, dict) else "unreadable"
        changed = [(remote, data) for remote, data in files if b.hash(remote) != sha256(data)]
        keep = {remote for remote, _ in files}
        stale = []
        for d in [""] + ["lib/" + p for p in PACKAGES]:
            for name in b.listdir(d):
                path = d + "/" + name if d else name
                lib_file = d and path not in keep
                if lib_file or name.endswith(NEW):
                    stale.append(path)
        result = Deployed(
            port, len(files), bytecode=not source, previous=prev_state if prev_state not in (None, "complete") else None
        )
        if not changed and not stale and prev_state == "complete":
            step(_("the board is up to date"))
        else:
            plan(sum(len(data) for _, data in changed))
            step(_("marking the deploy as started"))
            head = {"version": __version__, "bytecode": "py" if source else "mpy", "error": error_pattern(files)}
            b.write(MANIFEST, json.dumps(dict(head, state="incomplete")).encode(), lambda n: None)
            for k, (remote, data) in enumerate(changed, 1):
                step(_("writing %s (%d/%d)") % (remote, k, len(changed)))
                b.write(remote, data, progress)
                result.written.append(remote)
            for path in stale:
                step(_("removing %s") % path)
                b.remove(path)
                result.removed.append(path)
            step(_("marking the deploy as complete"))
            # main.py checks the sizes before it imports anything; each file's hash was
            # checked as it was written (no hashes here: the board parses this at every power-up).
            sizes = {remote: len(data) for remote, data in files}
            b.write(MANIFEST, json.dumps(dict(head, state="complete", sizes=sizes)).encode(), lambda n: None)
        step(_("restarting the board"))
        b.reset()
    finally:
        b.close()
    return result
