# The same power-cut script on a real LittleFS (MicroPython's VfsLfs2, the
# file system of a Pico) over a RAM block device that dies after its Nth
# program or erase. Runs on the MicroPython unix port only: CPython has no
# LittleFS. After every cut the board remounts and must hold a whole state.
import gc
import os

from test_fw_powercut import SCRIPT, act, keys, snap

from cribapp.store import FlashFiles

from rig import Table

MOUNT = "/cribflash"
BLOCK = 512
BLOCKS = 128  # 64 KiB: small, so LittleFS recycles blocks during the game


class RamBlocks:
    """A block device in RAM; from operation `cut` on, nothing reaches it.
    Failures are returned as -EIO rather than raised, and nothing here
    allocates: LittleFS may call in from a finaliser, with the heap locked."""

    def __init__(self, data, cut=-1):
        self.data = data  # used in place: the heap is Pico-sized
        self.ops = 0
        self.cut = cut

    def _dead(self):
        if 0 <= self.cut <= self.ops:
            return True
        self.ops += 1
        return False

    def readblocks(self, n, buf, off=0):
        start = n * BLOCK + off
        data = self.data
        for i in range(len(buf)):
            buf[i] = data[start + i]

    def writeblocks(self, n, buf, off=0):
        if self._dead():
            return -5
        start = n * BLOCK + off
        data = self.data
        for i in range(len(buf)):
            data[start + i] = buf[i]
        return 0

    def ioctl(self, op, arg):
        if op == 4:
            return BLOCKS
        if op == 5:
            return BLOCK
        if op == 6:
            if self._dead():
                return -5
            data = self.data
            for i in range(arg * BLOCK, (arg + 1) * BLOCK):
                data[i] = 0xFF
        return 0


def mount(dev):
    gc.collect()
    try:
        os.umount(MOUNT)
    except OSError:
        pass
    os.mount(os.VfsLfs2(dev), MOUNT)
    return Table(flash=FlashFiles(MOUNT))


def blank():
    dev = RamBlocks(bytearray(b"\xff" * (BLOCK * BLOCKS)))
    os.VfsLfs2.mkfs(dev)
    return dev.data


def test_power_cuts_on_littlefs():
    if not hasattr(os, "VfsLfs2"):
        raise AssertionError("this test needs MicroPython's LittleFS (unix port)")
    image = blank()
    work = bytearray(image)
    dev = RamBlocks(work)
    t = mount(dev)
    states, logs, bounds = [snap(t)], [keys(t)], [dev.ops]
    for step in SCRIPT:
        act(t, step)
        states.append(snap(t))
        logs.append(keys(t))
        bounds.append(dev.ops)
    total = bounds[-1]
    for k in range(total):
        work[:] = image
        dev = RamBlocks(work, cut=k)
        try:
            t = mount(dev)
            for step in SCRIPT:
                act(t, step)
        except OSError:
            pass  # the board died; what reached the blocks is all there is
        i = 0
        while bounds[i] <= k:
            i += 1
        back = mount(RamBlocks(work))
        got = (snap(back), keys(back))
        assert got == (states[i], logs[i]) or (i > 0 and got == (states[i - 1], logs[i - 1])), (k, i)
    os.umount(MOUNT)
    assert total > 100, total
