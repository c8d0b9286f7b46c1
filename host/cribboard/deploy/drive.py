# Deploying to a CircuitPython board: its CIRCUITPY drive, mounted by the
# computer, is written like any folder. The drive is found by its
# boot_out.txt, which also names the CircuitPython version. As on MicroPython
# (flash.py), deploy.json says "incomplete" before the first change and
# "complete" after the last, each file is written beside the old one and
# then put in its place, and only changed files are written; files that are
# not the firmware's (the maker's own) are left alone.
import errno
import json
import os
import re
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from cribboard import resources
from cribboard.deploy import manifest
from cribboard.deploy.flash import MANIFEST, NEW, Deployed, sha256
from cribboard.errors import CribboardError, UsageError
from cribboard.text.i18n import N_, _
from cribcore import __version__

SUPPORTED = (9, 10)  # CircuitPython major versions the edge is written for
PACKAGES = ("cribcore", "cribapp", "cribcp")
BOOT_OUT = "boot_out.txt"
READ_ONLY = N_(
    "%s is read-only to this computer: the board's program has it (see boot.py). Unplug the board, "
    "plug it in again holding UNDO, and flash again"
)


class DriveError(CribboardError):
    pass


def _mounts() -> list[Path]:
    """Where operating systems mount a USB drive."""
    if sys.platform == "win32":
        return [Path("%s:\\" % c) for c in "DEFGHIJKLMNOPQRSTUVWXYZ"]
    if sys.platform == "darwin":
        return sorted(Path("/Volumes").glob("*"))
    found = []
    try:
        with open("/proc/mounts") as f:
            found = [Path(line.split()[1].replace("\\040", " ")) for line in f if len(line.split()) > 1]
    except OSError:
        pass
    for base in ("/media", "/run/media"):
        found += sorted(Path(base).glob("*/*"))
    return found


def find(drive: str | None = None) -> Path:
    """The CIRCUITPY drive: the one given, or the one mounted drive with a boot_out.txt."""
    if drive:
        path = Path(drive)
        if not (path / BOOT_OUT).is_file():
            raise UsageError(_("%s is not a CircuitPython drive (it has no %s)") % (path, BOOT_OUT))
        return path
    drives = []
    for m in _mounts():
        try:
            if (m / BOOT_OUT).is_file() and m not in drives:
                drives.append(m)
        except OSError:
            pass
    if not drives:
        raise DriveError(
            _("no CIRCUITPY drive found: plug in a CircuitPython board, or say where it is mounted with --drive PATH")
        )
    if len(drives) > 1:
        raise UsageError(
            _("more than one CircuitPython drive: %s; say which with --drive PATH") % ", ".join(str(d) for d in drives)
        )
    return drives[0]


def version(drive: Path) -> tuple[int, int, int]:
    """The CircuitPython version boot_out.txt names; refused if not supported."""
    text = (drive / BOOT_OUT).read_text(errors="replace")
    found = re.search(r"Adafruit CircuitPython (\d+)\.(\d+)\.(\d+)", text)
    if not found:
        raise DriveError(_("%s does not say which CircuitPython this is: %r") % (drive / BOOT_OUT, text[:80]))
    got = (int(found.group(1)), int(found.group(2)), int(found.group(3)))
    if got[0] not in SUPPORTED:
        raise DriveError(
            _(
                "the board runs CircuitPython %d.%d.%d; Cribboard runs on CircuitPython %s: "
                "update it (circuitpython.org/downloads)"
            )
            % (got + (" and ".join("%d.x" % v for v in SUPPORTED),))
        )
    return got


def library(name: str) -> Path:
    """An Adafruit library's source, from its installed PyPI package
    (adafruit-circuitpython-NAME), not whatever `import NAME` finds here."""
    dist = "adafruit-circuitpython-" + name.replace("_", "-")
    try:
        found = [f for f in metadata.files(dist) or () if f.name == name + ".py"]
    except metadata.PackageNotFoundError:
        found = []
    if not found:
        raise DriveError(
            _('Adafruit\'s %s library is not installed here: pip install "cribboard[circuitpython]"') % name
        )
    return Path(str(found[0].locate()))


def build(board: str = "pico", layout: str | None = None) -> list[tuple[str, bytes]]:
    """(path on the drive, contents) of every file, in the order they are written: code.py last."""
    board_path = resources.board_file(board)
    layout_name = layout or json.loads(board_path.read_text()).get("layout", "2-track")
    found, requires = manifest.read("manifest_circuitpython.py")
    # Not the WiFi sender: a CircuitPython board does not report to a club (its WiFi is another API).
    files = [
        (remote, src.read_bytes()) for src, remote in found if remote != "code.py" and not manifest.club_file(remote)
    ]
    files += [("lib/%s.py" % name, library(name).read_bytes()) for name in requires]
    files.append(("board.json", board_path.read_bytes()))
    files.append(("layout.json", resources.board_layout(layout_name)))
    files += [(remote, src.read_bytes()) for src, remote in found if remote == "code.py"]
    return files


def _write(path: Path, data: bytes) -> None:
    """Beside the old file, to the drive for real, then in its place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + NEW)
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def deploy(
    drive: Path, board: str = "pico", layout: str | None = None, step: Callable[[str], None] = lambda s: None
) -> Deployed:
    files = build(board, layout)
    step(_("CircuitPython %d.%d.%d on %s") % (version(drive) + (drive,)))
    last = drive / MANIFEST
    try:
        previous = json.loads(last.read_text()).get("state") if last.exists() else None
    except (ValueError, AttributeError, OSError):
        previous = "torn"
    changed = [
        (remote, data)
        for remote, data in files
        if not (drive / remote).is_file() or sha256((drive / remote).read_bytes()) != sha256(data)
    ]
    keep = {remote for remote, _ in files}
    stale = [
        p
        for pkg in PACKAGES
        for p in sorted((drive / "lib" / pkg).glob("*"))
        if p.is_file() and p.relative_to(drive).as_posix() not in keep
    ]
    stale += [p for p in sorted(drive.rglob("*" + NEW)) if p.is_file()]
    result = Deployed(
        str(drive), len(files), bytecode=False, previous=previous if previous not in (None, "complete") else None
    )
    if not changed and not stale and previous == "complete":
        step(_("the board is up to date"))
        return result
    head = {"version": __version__, "bytecode": "py", "runtime": "circuitpython"}
    try:
        step(_("marking the deploy as started"))
        _write(last, json.dumps(dict(head, state="incomplete")).encode())
        for k, (remote, data) in enumerate(changed, 1):
            step(_("writing %s (%d/%d)") % (remote, k, len(changed)))
            _write(drive / remote, data)
            result.written.append(remote)
        for p in stale:
            step(_("removing %s") % p.relative_to(drive).as_posix())
            p.unlink()
            result.removed.append(p.relative_to(drive).as_posix())
        step(_("marking the deploy as complete"))
        hashes = {remote: sha256(data) for remote, data in files}
        _write(last, json.dumps(dict(head, state="complete", files=hashes)).encode())
    except OSError as e:
        if isinstance(e, PermissionError) or e.errno == errno.EROFS:
            raise DriveError(_(READ_ONLY) % drive) from None
        raise DriveError(_("writing to %s failed: %s") % (drive, e.strerror or e)) from None
    return result
