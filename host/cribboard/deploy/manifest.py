# The board's file list, read from firmware/manifest.py (MicroPython's
# manifest format, so the same file can freeze the firmware into an image),
# and the mip package.json made from it.
import json
from pathlib import Path
from typing import Any

from cribboard import resources
from cribboard.errors import CribboardError

# What `mpremote mip install` also puts on the board: the Pico's pin map and
# the 2-track layout (cribboard flash --board/--layout chooses others).
MIP_CONFIG = (("board.json", "../hardware/boards/pico.json"), ("layout.json", "../hardware/layouts/2-track.json"))


class ManifestError(CribboardError):
    pass


def read(name: str = "manifest.py") -> tuple[list[tuple[Path, str]], list[str]]:
    """(source file, path on the board) for every file a manifest names
    (following include()), and the libraries it require()s."""
    root = resources.firmware_dir()
    out: list[tuple[Path, str]] = []
    requires: list[str] = []

    def module(path: str, base_path: str = ".", opt: Any = None) -> None:
        # As MicroPython's manifest means it: the file base_path/path is `path` on the board.
        out.append((root / base_path / path, Path(path).as_posix()))

    def package(name: str, files: list[str] | None = None, base_path: str = ".", opt: Any = None) -> None:
        if files is None or base_path != "lib":
            raise ManifestError("%s: package(%r) must list its files and live in lib/" % (name, name))
        # The sources are the installed package's own files (the host imports them too).
        src = resources.package_dir(name)
        out.extend((src / f, "lib/%s/%s" % (name, f)) for f in files)

    def require(name: str, **kw: Any) -> None:
        requires.append(name)

    def include(path: str) -> None:
        run(path)

    def run(path: str) -> None:
        text = (root / path).read_text()
        exec(
            compile(text, str(root / path), "exec"),
            {"module": module, "package": package, "require": require, "include": include},
        )

    run(name)
    missing = [str(src) for src, _ in out if not src.is_file()]
    if missing:
        raise ManifestError("%s names files that are not there: %s" % (name, ", ".join(missing)))
    return out, requires


# A WiFi board's sender and the core's two modules only it loads (the club's wire and its signing): only a
# board whose MicroPython has `network` gets them.
CLUB = ("lib/cribclub/", "lib/cribcore/clubwire.", "lib/cribcore/signing.")  # (.py or .mpy)


def club_file(remote: str) -> bool:
    """Whether a board file is the WiFi sender's (cribclub and what only it loads): left off a board that
    cannot use it."""
    return remote.startswith(CLUB)


def entries() -> list[tuple[Path, str]]:
    """(source file, path on the board) for every file of the MicroPython board."""
    return read("manifest.py")[0]


def package_json(version: str) -> str:
    """firmware/package.json for mip: the manifest's files plus a pin map and layout."""
    root = resources.firmware_dir()
    urls = [(remote, src.relative_to(root).as_posix()) for src, remote in entries()] + list(MIP_CONFIG)
    rows = ",\n".join("    %s" % json.dumps(list(pair)) for pair in urls)
    text = '{\n  "urls": [\n%s\n  ],\n  "version": %s\n}\n' % (rows, json.dumps(version))
    json.loads(text)  # one pair a line, and still JSON
    return text


if __name__ == "__main__":  # make package-json: firmware/package.json from firmware/manifest.py
    from cribcore import __version__

    print(package_json(__version__), end="")
