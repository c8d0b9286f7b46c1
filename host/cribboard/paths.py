# Where the firmware and the hardware data live: beside this package in a
# Cribboard checkout (the way `make run` and `make test` use it), or where
# CRIBBOARD_HOME points.
import os
from pathlib import Path


class NotFound(Exception):
    pass


def home():
    env = os.environ.get("CRIBBOARD_HOME")
    candidates = [Path(env)] if env else []
    candidates.append(Path(__file__).resolve().parents[2])
    for root in candidates:
        if (root / "firmware" / "main.py").is_file() and (root / "hardware").is_dir():
            return root
    raise NotFound("the firmware was not found: run from a Cribboard checkout or set CRIBBOARD_HOME")


def firmware():
    return home() / "firmware"


def hardware():
    return home() / "hardware"


def board_file(name):
    path = hardware() / "boards" / (name + ".json")
    if not path.is_file():
        raise NotFound("no pin map %r in hardware/boards" % name)
    return path


def layout_file(name):
    path = hardware() / "layouts" / (name + ".json")
    if not path.is_file():
        raise NotFound("no LED layout %r in hardware/layouts" % name)
    return path


def mp_dir():
    """The MicroPython side of the simulated board."""
    return Path(__file__).resolve().parent / "mp"
