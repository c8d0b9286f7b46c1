# The simulated board: the real firmware on MicroPython's unix port, its
# serial line on a pseudo-terminal, its LED strip and buttons on a local
# socket that the web page (cribboard.web: server, pages) shows and presses.
import hashlib
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, BinaryIO

from cribboard import resources
from cribboard.deploy import manifest
from cribboard.errors import CribboardError, SimError
from cribboard.sim.hwlink import HwLink, HwLinkError
from cribboard.text.i18n import N_, _

HEAP = "192wK"
TAP_MS = 40  # how long a tap holds a button down, on the board's clock: a quick finger, twice the debounce
LONG_MS = 1000  # and a long press (the firmware's is 700 ms)
GESTURES = ("tap", "long")
PACKAGES = ("cribcore", "cribapp", "cribclub", "cribmp")
CIRCUITPYTHON = "circuitpython"
BOOT_OUT = "Adafruit CircuitPython 9.2.1 on 2024-11-20; Cribboard simulated board with rp2040\n"


def micropython_binary():
    """The unix port's command, or None where it is not installed."""
    if os.environ.get("CRIBBOARD_SIM_RUNTIME") == "cpython":
        return None
    here = Path(sys.executable).parent / "micropython"
    if here.exists():
        return str(here)
    return shutil.which("micropython")


def board_command(flash: str, port: str, ident: str, edition: str = "micropython") -> tuple[list[str], str]:
    """The command that runs the virtual board, and the runtime's name."""
    if edition == CIRCUITPYTHON:
        # CircuitPython's edge on CPython, over stand-ins for its hardware modules.
        return [sys.executable, str(resources.cp_dir() / "cpboard.py"), flash, port, ident], CIRCUITPYTHON
    mp = micropython_binary()
    if mp:
        return [mp, "-X", "heapsize=" + HEAP, str(resources.mp_dir() / "vboard.py"), flash, port, ident], "micropython"
    # No unix port here: the same firmware on CPython, without a REPL.
    return [sys.executable, str(resources.mp_dir() / "cpython_board.py"), flash, port, ident], "cpython"


def lock_flash(flash: Path) -> Any:
    """Hold the flash folder for this process: a second simulated board on
    the same folder would show the same board and overwrite what `flash`
    deployed there. The lock is a file beside the folder (not in it: the
    board's own files stay its own), released when this process ends, a
    SIGKILL included. Returns the open lock file, to keep until the end."""
    import fcntl

    flash.parent.mkdir(parents=True, exist_ok=True)
    f = open(flash.parent / (flash.name + ".lock"), "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        holder = f.read().strip()
        f.close()
        raise CribboardError(
            _(
                "the flash folder %(flash)s is in use by another simulated board (process %(pid)s); "
                "stop it, or give this one a folder of its own with --flash DIR"
            )
            % {"flash": flash, "pid": holder if holder.isdigit() else "?"}
        ) from None
    f.seek(0)
    f.truncate()
    f.write("%d\n" % os.getpid())
    f.flush()
    return f


def check_config(flash: Path, board: str, layout: str, given: set[str]) -> None:
    """The pin map and layout asked for exist; on a flash that has its own
    already, one asked for by name must be the one it has (a flash keeps
    its board.json and layout.json: they are not replaced silently)."""
    import json

    for option, name, kept in (("--board", board, "board.json"), ("--layout", layout, "layout.json")):
        (resources.board_file if option == "--board" else resources.layout_file)(name)  # one that exists
        there = flash / kept
        try:
            has = json.loads(there.read_text()).get("name") if there.exists() else name
        except (ValueError, OSError, AttributeError):
            has = None  # a broken file: the board shows error 5 and uses its defaults
        if option in given and has != name:
            raise CribboardError(
                _(
                    "%(flash)s already has its own %(file)s, not %(option)s %(name)s; a new folder "
                    "(--flash DIR) takes %(option)s"
                )
                % {"flash": flash, "file": kept, "option": option, "name": name}
            )


def seed_flash(
    flash: Path, board: str = "pico", layout: str = "2-track", refresh: bool = True, edition: str = "micropython"
) -> None:
    """Put the firmware and the config on the simulated flash. refresh=True
    copies the current firmware over the old (state and log are kept)."""
    flash.mkdir(parents=True, exist_ok=True)
    if edition == CIRCUITPYTHON:
        # A CIRCUITPY drive, deployed as `cribboard flash --drive` deploys one.
        from cribboard.deploy import drive

        if not (flash / drive.BOOT_OUT).exists():
            (flash / drive.BOOT_OUT).write_text(BOOT_OUT)
        if refresh or not (flash / "code.py").exists():
            drive.deploy(flash, board, layout)
        return
    if refresh or not (flash / "main.py").exists():
        for pkg in PACKAGES:
            if (flash / "lib" / pkg).exists():
                shutil.rmtree(flash / "lib" / pkg)
        for src, remote in manifest.entries():  # exactly what a real board gets
            (flash / remote).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, flash / remote)
    if not (flash / "board.json").exists():
        shutil.copy2(resources.board_file(board), flash / "board.json")
    if not (flash / "layout.json").exists():
        shutil.copy2(resources.layout_file(layout), flash / "layout.json")


def board_ident(flash: str | Path) -> str:
    """The simulated board's unique_id (the board id its HELLO says): its flash folder's, so a board started
    again on the same flash is the same board."""
    return hashlib.sha256(str(Path(flash).resolve()).encode()).hexdigest()[:16]


class Simulator:
    def __init__(
        self,
        flash: str | Path,
        link: str | Path | None = None,
        log: str | Path | None = None,
        edition: str = "micropython",
    ) -> None:
        self.flash = Path(flash).resolve()
        self.ident = board_ident(self.flash)
        self.link = Path(link) if link else None
        # The board process's stderr (its tracebacks): beside its flash folder unless given.
        self.log_path = Path(log) if log else self.flash.parent / ("%s.log" % self.flash.name)
        self._log: BinaryIO | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.port: str | None = None  # the pty, once it runs
        self._hw: HwLink | None = None  # the board's simulated hardware (hwlink), once it runs
        self._master = self._slave = -1
        self.runtime: str | None = None
        self.edition = edition

    # --- life ---------------------------------------------------------------
    def start(self, timeout: float = 20, first_frame: bool = True) -> None:
        self.layout = _read_json(self.flash / "layout.json")
        self.board = _read_json(self.flash / "board.json")
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(timeout)
        import tty  # POSIX only: the rest of cribboard works where it is missing

        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # a serial line, not a terminal: no echo, no line editing
        self.port = port = os.ttyname(self._slave)
        if self.link:
            if self.link.is_symlink() or self.link.exists():
                self.link.unlink()
            self.link.symlink_to(port)
        env = dict(os.environ, MICROPYPATH=str(resources.mp_dir()), PYTHONPATH=str(resources.mp_dir()))
        cmd, self.runtime = board_command(str(self.flash), str(listener.getsockname()[1]), self.ident, self.edition)
        try:
            self._log = open(self.log_path, "ab")
        except OSError as e:
            raise SimError(_("cannot write the board's log %s: %s") % (self.log_path, e.strerror or e)) from None
        # umask: the files the board writes on its flash are this user's alone (club.json holds its key,
        # wifi.json the club's password), as on a board no one else reads.
        self.proc = subprocess.Popen(
            cmd, stdin=self._master, stdout=self._master, stderr=self._log, env=env, umask=0o077
        )
        try:
            sock, _addr = listener.accept()
        except OSError:
            self.stop()
            raise SimError(_("the simulated board did not start (its log: %s)") % self.log_path) from None
        finally:
            listener.close()
        self._hw = HwLink(sock, self.alive)
        if first_frame:  # (a board with only MicroPython on it draws none)
            self.wait_frame(0, timeout)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1
        if self._hw:
            self._hw.close()
        if self._log:
            self._log.close()
            self._log = None
        if self.link and self.link.is_symlink():
            self.link.unlink()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    # --- the strip ------------------------------------------------------------
    @property
    def frame(self) -> bytes:
        return self._hw.frame if self._hw else b""

    @property
    def frames(self) -> int:
        """Frames the board has written so far."""
        return self._hw.frames if self._hw else 0

    def wait_frame(self, after: int, timeout: float = 5.0) -> int:
        """Wait for a frame newer than number `after`; returns the frame count."""
        return self._hw.wait_frame(after, timeout) if self._hw else 0

    def leds(self) -> list[list[int]]:
        """[r, g, b] per strip index."""
        return self._hw.leds() if self._hw else []

    def scoreboard(self) -> dict[str, Any] | None:
        """The scoreboard of the match the board last saved (its state.json),
        or None before it saved one."""
        from cribboard.web import scoreboard

        state = scoreboard.read_state(self.flash / "state.json")
        return None if state is None else scoreboard.view(state)

    def wifi(self, in_range: bool) -> None:
        """The club's WiFi in range of the board, or gone (a Pico W's; a board with no club ignores it)."""
        if self._hw is None:
            raise SimError(_("the simulated board is not running"))
        self._hw.wifi(in_range)

    # --- the buttons ------------------------------------------------------------
    def buttons(self) -> list[str]:
        names = [n for n in self.board.get("buttons", {}) if n != "P3" or self.layout.get("tracks", 2) >= 3]
        return names

    def press(self, button: str, gesture: str = "tap") -> int:
        # These answer the page's API (a 400's JSON): English, whatever the server's language; the page says
        # the ones a player meets in the reader's language (sim.html's PRESS_WORDS).
        if button not in self.buttons():
            raise SimError("no button %r on this board (buttons: %s)" % (button, " ".join(self.buttons())))
        if gesture not in GESTURES:
            raise SimError("gesture is tap or long, not %r" % (gesture,))
        pin = self.board["buttons"][button]
        if self._hw is None:
            raise SimError(N_("the simulated board is not running"))
        try:
            return self._hw.press(pin, TAP_MS if gesture == "tap" else LONG_MS)
        except HwLinkError as e:
            raise SimError(str(e)) from None


def _read_json(path: str | Path) -> Any:
    import json

    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise SimError(_("cannot read %s: %s") % (path, e)) from None
