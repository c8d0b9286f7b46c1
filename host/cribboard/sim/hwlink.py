# The host's side of a simulated board's hardware, over a local socket in
# the protocol of host/cribboard/mp/simhw.py (the simulated board's side;
# tests/rp2040/pico.mjs speaks it too, for the emulated Pico): button
# changes go out, each held for its time on the board's own clock and
# acknowledged ("A ID") once the board has seen it; the strip's frames
# ("F <GRB hex>") come in, and "R" when the chip resets; "Z" hangs the
# board (a test's fault).
import socket
import threading
import time
from collections.abc import Callable

from cribboard.errors import CribboardError
from cribboard.text.i18n import N_

HOLD_MS = 25  # a release is held this long: longer than the firmware's debounce
PRESS_TIMEOUT_S = 10


class HwLinkError(CribboardError):
    """The simulated board's hardware link failed: the board stopped answering, or went away."""


class HwLink:
    def __init__(self, sock: socket.socket, alive: Callable[[], bool]) -> None:
        self.sock = sock
        self.alive = alive  # whether the board's process still runs
        self.frame = b""  # the strip's last frame, GRB bytes as the driver holds them
        self.frames = 0  # frames written so far
        self.seen = 0  # the last button change the board says it has seen
        self.resets = 0  # resets the board has told of (machine.reset(), its watchdog)
        self._frames_at_reset = 0  # the frame count when the last reset was told
        self.press_timeout_s = PRESS_TIMEOUT_S  # wall time a press may take (longer for an emulated chip)
        self.changed = threading.Condition()
        self._press_lock = threading.Lock()
        self._change = 0  # presses sent: press n's changes are 2n (down) and 2n + 1 (up)
        threading.Thread(target=self._read, daemon=True).start()

    def close(self) -> None:
        self.sock.close()

    def _read(self) -> None:
        buf = b""
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                data = b""
            if not data:  # the board's process has gone: whoever waits on it is told now
                with self.changed:
                    self.changed.notify_all()
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                if line.startswith(b"F "):
                    with self.changed:
                        self.frame = bytes.fromhex(line[2:].decode())
                        self.frames += 1
                        self.changed.notify_all()
                elif line == b"R":
                    with self.changed:
                        self.resets += 1
                        self._frames_at_reset = self.frames
                        self.changed.notify_all()
                elif line.startswith(b"A ") and line[2:].isdigit():
                    with self.changed:
                        self.seen = int(line[2:])
                        self.changed.notify_all()

    def wait_frame(self, after: int, timeout: float = 5.0) -> int:
        """Wait for a frame newer than number `after`; returns the frame count."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.frames <= after:
                left = deadline - time.monotonic()
                if left <= 0 or not self.alive():
                    break
                self.changed.wait(min(left, 0.5))  # a board that died is noticed soon
            return self.frames

    def wait_restarted(self, resets: int, timeout: float = 60.0) -> int:
        """Wait until the board has reset since it had told of `resets`, and
        drawn its first frame after; returns the frame count then."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.resets <= resets and time.monotonic() < deadline and self.alive():
                self.changed.wait(min(deadline - time.monotonic(), 0.5))
            frames = self._frames_at_reset  # (its first frame may be in already: a steady board draws no more)
        return self.wait_frame(frames, max(0.0, deadline - time.monotonic()))

    def leds(self) -> list[list[int]]:
        """[r, g, b] per strip index (the strip holds G, R, B)."""
        f = self.frame
        return [[f[i + 1], f[i], f[i + 2]] for i in range(0, len(f), 3)]

    def press(self, pin: int | str, hold_ms: int, release_ms: int = HOLD_MS) -> int:
        """Press and release pin, down for hold_ms of the board's time, then
        up for release_ms; returns the frame count once that time is up. The
        default is longer than the debounce, so the board has seen the
        release; what it does about it (a save to flash, say) may take
        longer on a slow board: give it release_ms to wait for that too."""
        name = str(pin).encode()
        return self._changes(b"D %s %d %%d\nU %s %d %%d\n" % (name, hold_ms, name, release_ms), hold_ms)

    def idle(self, pin: int | str, ms: int) -> int:
        """Leave the buttons alone for ms of the board's time (pin, which is
        up, is told up again); returns the frame count then."""
        return self._changes(b"U %s %d %%d\nU %s 0 %%d\n" % (str(pin).encode(), ms, str(pin).encode()), ms)

    def wifi(self, in_range: bool) -> None:
        """The club's WiFi comes into range or goes (the board's simulated WLAN: cribboard.mp.network)."""
        self.sock.sendall(b"W 1\n" if in_range else b"W 0\n")

    def freeze(self) -> None:
        """A test's fault: the board's core hangs, interrupts and all, so
        only its watchdog (if it started one) can restart it."""
        self.sock.sendall(b"Z\n")

    def _changes(self, lines: bytes, ms: int) -> int:
        """Send two button changes (lines with two %d for their ids); wait until the board has seen both."""
        with self._press_lock:
            self._change += 1
            up = self._change * 2 + 1
            self.sock.sendall(lines % (up - 1, up))
            deadline = time.monotonic() + self.press_timeout_s + ms / 1000
            with self.changed:
                resets = self.resets
                while self.seen < up:
                    if self.resets != resets:  # a reset drops the changes it had not seen: said at once
                        raise HwLinkError(
                            N_("the board restarted (its watchdog, or machine.reset()) before it took the press")
                        )
                    left = deadline - time.monotonic()
                    if left <= 0 or not self.alive():
                        raise HwLinkError(
                            N_(
                                "the board did not take the press: is its program running "
                                "(not stopped at its REPL, or being flashed)?"
                            )
                        )
                    self.changed.wait(min(left, 0.5))  # a board that died is noticed soon
                return self.frames
