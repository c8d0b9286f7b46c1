# The CircuitPython edge's test rig, on CPython and on MicroPython's unix
# port alike (CircuitPython is a fork of MicroPython and shares its limits):
# no os.path, shutil or tempfile here, so the board's code is tried on an
# interpreter that lacks what CPython alone has. A board on the table:
# boot.py, then code.py's build, stepped on a fake clock.
import os

import simcp
import usb_cdc

from cribcore.seal import seal, unseal

from rig import FakeClock, own_folder


def _absolute(path):
    return path if path.startswith("/") else os.getcwd() + "/" + path


HERE = _absolute(__file__.rsplit("/", 1)[0])
ROOT = HERE.rsplit("/", 2)[0]
FIRMWARE = ROOT + "/firmware"
PINS = {"P1": "GP2", "P2": "GP3", "UNDO": "GP5", "SKUNK": "GP6", "OK": "GP7"}


def copy(src, dst):
    with open(src, "rb") as f:
        data = f.read()
    with open(dst, "wb") as f:
        f.write(data)


def exists(path):
    try:
        os.stat(path)
    except OSError:
        return False
    return True


def fresh_flash(board="pico"):
    """A new CIRCUITPY drive with a pin map and the 2-track layout, in a
    folder of its own (the tests' own temporary folder, TMPDIR)."""
    flash = own_folder("cribboard-cp")
    copy(ROOT + "/hardware/boards/%s.json" % board, flash + "/board.json")
    copy(ROOT + "/hardware/layouts/2-track.json", flash + "/layout.json")
    return flash


class InFolder:
    """`with InFolder(path):` runs its block there, as CircuitPython runs code.py in the drive's root."""

    def __init__(self, path):
        self.path = path
        self.was = None

    def __enter__(self):
        self.was = os.getcwd()
        os.chdir(self.path)

    def __exit__(self, *exc):
        os.chdir(self.was)


def run_file(path, cwd):
    """Run boot.py or code.py as CircuitPython does: in the drive's root."""
    with InFolder(cwd):
        scope = {"__name__": "__boot__"}
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), scope)
        return scope


class CpTable:
    """A CircuitPython board on the table: boot.py, then code.py's build;
    after a power-up, or a reset of the chip for `reason` (a ChipReset's);
    run: why code.py runs (supervisor.RunReason's name)."""

    def __init__(self, flash, clock=None, held=(), reason="POWER_ON", run="STARTUP"):
        simcp.reset(reason)
        simcp.chip["run_reason"] = run
        for name in held:
            simcp.levels[PINS[name]] = False  # buttons pull their pin to ground
        run_file(FIRMWARE + "/boot.py", flash)
        self.serial = usb_cdc.data
        code = run_file(FIRMWARE + "/code.py", flash)
        self.clock = clock or FakeClock(period=1 << 29)
        self.app = code["build"](flash, clock=self.clock)
        self.layout = self.app.layout
        self.run(50)

    def run(self, ms, step=10):
        for _ in range(ms // step):
            self.clock.advance(step)
            self.app.step()

    def tap(self, name, ms=60):
        simcp.levels[PINS[name]] = False
        self.run(ms)
        simcp.levels[PINS[name]] = True
        self.run(40)

    def enter(self, side, points):
        for _ in range(points):
            self.tap("P%d" % (side + 1))
        self.tap("OK")

    def wire(self, index):
        """The colour of LED index in the last bytes sent down the wire (GRB)."""
        frame = simcp.frames[-1]
        return (frame[3 * index + 1], frame[3 * index], frame[3 * index + 2])

    def ask(self, text):
        self.serial.incoming += seal(text)
        self.run(200)
        lines = bytes(self.serial.outgoing).split(b"\n")
        self.serial.outgoing[:] = b""
        return [unseal(line + b"\n") for line in lines if line]
