# The power-cut script of test_fw_powercut on a real FAT file system: ChaN's
# FatFS (through fatfs-ng), the code CircuitPython's own FAT support is
# built on, over a RAM disk that stops taking writes at its Nth sector write
# (and, torn, lands only the first sector of that write). FAT will not
# rename over a file, so the store's remove-then-rename path and its
# recovery run for real. After every cut the board remounts the image and
# must hold the state from just before or just after the interrupted step.
import errno

import pytest

fatfs = pytest.importorskip("fatfs")
from fatfs import wrapper as ff  # noqa: E402
from test_fw_powercut import SCRIPT, act, keys, snap  # noqa: E402

from rig import Table  # noqa: E402

SECTOR = 512
SECTORS = 256  # 128 KiB: the smallest volume FatFS formats as FAT12 with room for the game
_CHUNK = 512


class DyingDisk(fatfs.RamDisk):
    """A RAM disk whose writes stop landing at write number `cut`: the power
    is gone, so FatFS is not told (the wrapper cannot take an error from a
    disk written in Python), and nothing more reaches the image."""

    def __init__(self, image, cut=-1, torn=False):
        super().__init__(image, sector_size=SECTOR)
        self.cut, self.torn, self.writes = cut, torn, 0

    def write(self, sector, count, buff):  # count is in bytes
        n = self.writes
        self.writes += 1
        if 0 <= self.cut <= n:
            if self.torn and self.cut == n and count > SECTOR:
                super().write(sector, SECTOR, buff[:SECTOR])  # the first sector lands, the rest does not
            return
        super().write(sector, count, buff)


def _check(res, what):
    if res != ff.PY_FR_OK:
        code = errno.EEXIST if res == ff.PY_FR_EXIST else errno.ENOENT if res == ff.PY_FR_NO_FILE else errno.EIO
        raise OSError(code, "%s: FatFS result %d" % (what, res))


class FatFile:
    """A file on the FatFS volume, with what the store uses of a file object."""

    def __init__(self, path, mode):
        self.fh = ff.FIL_Handle()
        flags = {
            "rb": ff.PY_FA_READ,
            "wb": ff.PY_FA_WRITE | ff.PY_FA_CREATE_ALWAYS,
            "ab": ff.PY_FA_WRITE | ff.PY_FA_OPEN_APPEND,
        }[mode]
        _check(ff.pyf_open(self.fh, path, flags), "open")
        self.pending = b""  # read ahead by readline

    def write(self, data):
        res, written = ff.pyf_write(self.fh, bytes(data))
        _check(res, "write")
        if written != len(data):
            raise OSError(errno.ENOSPC, "the volume is full")
        return written

    def flush(self):
        _check(ff.pyf_sync(self.fh), "sync")

    def close(self):
        _check(ff.pyf_close(self.fh), "close")

    def _chunk(self):
        res, data = ff.pyf_read(self.fh, _CHUNK)
        _check(res, "read")
        return data

    def read(self, n=-1):
        out = self.pending
        while n < 0 or len(out) < n:
            data = self._chunk()
            if not data:
                break
            out += data
        if n < 0:
            self.pending = b""
            return out
        self.pending = out[n:]
        return out[:n]

    def readline(self):
        while b"\n" not in self.pending:
            data = self._chunk()
            if not data:
                break
            self.pending += data
        cut = self.pending.find(b"\n") + 1 or len(self.pending)
        line, self.pending = self.pending[:cut], self.pending[cut:]
        return line

    def seek(self, pos):
        self.pending = b""
        _check(ff.pyf_lseek(self.fh, pos), "seek")


class FatFiles:
    """cribapp.store.FlashFiles on the mounted FatFS volume: os.rename's
    FAT behaviour included (it will not replace a file)."""

    def __init__(self, partition):
        self.path = lambda name: partition._adjust_path("/" + name)

    def open(self, name, mode):
        return FatFile(self.path(name), mode)

    def rename(self, old, new):
        _check(ff.pyf_rename(self.path(old), self.path(new)), "rename")

    def remove(self, name):
        ff.pyf_unlink(self.path(name))  # as FlashFiles.remove: a missing file is fine

    def size(self, name):
        info = ff.FILINFO_Handle()
        if ff.pyf_stat(self.path(name), info) != ff.PY_FR_OK:
            return -1
        return info.get_size()


def mount(disk):
    part = ff.Partition(disk)
    part.mount()
    return Table(flash=FatFiles(part)), part


def blank():
    image = bytearray(SECTOR * SECTORS)
    part = ff.Partition(fatfs.RamDisk(image, sector_size=SECTOR))
    part.mkfs()
    return image


def test_power_cuts_on_fat():
    image = blank()
    work = bytearray(image)
    disk = DyingDisk(work)
    t, part = mount(disk)
    states, logs, bounds = [snap(t)], [keys(t)], [disk.writes]
    for step in SCRIPT:
        act(t, step)
        states.append(snap(t))
        logs.append(keys(t))
        bounds.append(disk.writes)
    part.unmount()
    assert logs[-1] == [(2, 1), (2, 2), (2, 3)]
    assert t.app.store.problems == []
    total = bounds[-1]
    for torn in (False, True):
        for k in range(total):
            work[:] = image
            disk = DyingDisk(work, cut=k, torn=torn)
            t, part = mount(disk)
            for step in SCRIPT:  # the board goes on in memory; nothing more reaches the disk
                act(t, step)
            part.unmount()
            i = 0
            while bounds[i] <= k:
                i += 1
            back, part = mount(DyingDisk(work))
            got = (snap(back), keys(back))
            part.unmount()
            assert got == (states[i], logs[i]) or (i > 0 and got == (states[i - 1], logs[i - 1])), (k, torn, i)
    assert total > 100, total


def test_a_cut_while_the_board_mends_a_torn_log_loses_no_game():
    work = blank()
    t, part = mount(DyingDisk(work))
    for step in SCRIPT:
        act(t, step)
    logged = keys(t)
    whole = t.flash.size("games.log")
    f = t.flash.open("games.log", "ab")
    f.write(b'4 {"match": 3, "game_no": 1, "sco')  # a record the power cut tore
    f.close()
    part.unmount()
    image = bytes(work)
    disk = DyingDisk(bytearray(image))
    _, part = mount(disk)  # the boot that drops the torn line: how many writes it takes
    part.unmount()
    mending = disk.writes
    assert mending > 3
    for torn in (False, True):
        for k in range(mending):
            work[:] = image
            _, part = mount(DyingDisk(work, cut=k, torn=torn))
            part.unmount()
            back, part = mount(DyingDisk(work))
            assert keys(back) == logged, (k, torn)
            # Mended: the torn line gone, no copy left behind.
            assert back.flash.size("games.log") == whole and back.flash.size("games.tmp") < 0, (k, torn)
            part.unmount()
