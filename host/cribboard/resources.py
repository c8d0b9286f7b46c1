# Where the firmware and the hardware data are: in the installed package, read
# with importlib.resources (a wheel carries main.py, the board's modules, the
# pin maps and the layouts), or in the checkout that CRIBBOARD_HOME names.
import json
import os
from importlib.resources import files
from pathlib import Path

from cribboard.errors import UsageError
from cribboard.text.i18n import _

HOME_ENV = "CRIBBOARD_HOME"


class NotFound(UsageError):
    """A pin map or layout asked for by a name that has none: a mistake in
    the command (exit status 2)."""


def _as_path(package: str) -> Path:
    where = files(package)
    if not isinstance(where, Path):  # a zipped install: mpy-cross and MicroPython need real files
        raise NotFound(_("cribboard is installed in a zip file (%s): install it with pip into a folder") % where)
    return where


def _home() -> Path | None:
    env = os.environ.get(HOME_ENV)
    if not env:
        return None
    root = Path(env)
    if not (root / "firmware" / "main.py").is_file() or not (root / "hardware" / "boards").is_dir():
        raise NotFound(
            _(
                "%s=%s is not a Cribboard checkout (no firmware/main.py or hardware/boards): "
                "unset it to use the firmware installed with cribboard"
            )
            % (HOME_ENV, env)
        )
    return root


def firmware_dir() -> Path:
    """The folder with the board's main.py, manifest.py and package.json."""
    home = _home()
    return home / "firmware" if home else _as_path("cribboard.firmware")


def package_dir(name: str) -> Path:
    """The sources of one of the board's packages (cribcore, cribapp)."""
    home = _home()
    return home / "firmware" / "lib" / name if home else _as_path(name)


def hardware_dir() -> Path:
    """The folder with boards/ (pin maps) and layouts/ (LED layouts)."""
    home = _home()
    return home / "hardware" if home else _as_path("cribboard.hardware_data")


def names(kind: str) -> list[str]:
    """The pin maps (kind "boards") or layouts (kind "layouts") that ship."""
    return sorted(p.stem for p in (hardware_dir() / kind).glob("*.json"))


def board_file(name: str) -> Path:
    path = hardware_dir() / "boards" / (name + ".json")
    if not path.is_file():
        raise NotFound(_("no pin map %r (there are: %s)") % (name, ", ".join(names("boards"))))
    return path


def layout_file(name: str) -> Path:
    path = hardware_dir() / "layouts" / (name + ".json")
    if not path.is_file():
        raise NotFound(_("no LED layout %r (there are: %s)") % (name, ", ".join(names("layouts"))))
    return path


# What the firmware reads of a layout (cribcore.layoutfile.place): a board
# keeps only this, without spaces. It parses layout.json at every power-up,
# about 7 us a byte on a Pico: the drawing's x and y and the description
# (half the file) stay in hardware/layouts.
_BOARD_KEYS = ("name", "tracks", "leds", "runs")
_RUN_KEYS = ("kind", "track", "from", "to")


def board_layout(name: str) -> bytes:
    """Layout `name` as a board's layout.json."""
    data = json.loads(layout_file(name).read_bytes())
    kept = {k: data[k] for k in _BOARD_KEYS if k in data}
    if isinstance(kept.get("runs"), list):
        kept["runs"] = [
            {k: run[k] for k in _RUN_KEYS if k in run} if isinstance(run, dict) else run for run in kept["runs"]
        ]
    return json.dumps(kept, separators=(",", ":")).encode()


def mp_dir() -> Path:
    """The MicroPython side of the simulated board."""
    return _as_path("cribboard") / "mp"


def cp_dir() -> Path:
    """The simulated CircuitPython board and its stand-in hardware modules."""
    return _as_path("cribboard") / "cp"
