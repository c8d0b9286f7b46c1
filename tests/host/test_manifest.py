# firmware/manifest.py lists exactly what the board imports, and
# firmware/package.json (for mip) is made from it.
import ast
import json
from pathlib import Path

from cribboard import resources
from cribboard.deploy import manifest
from cribcore import __version__

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
BOARD_PACKAGES = ("cribcore", "cribapp", "cribclub", "cribmp")


def imported_by(path):
    """The board packages' modules that a file imports (top level or inside functions)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in BOARD_PACKAGES:
            if node.module in BOARD_PACKAGES:  # from cribapp import render: a module or a name
                for alias in node.names:
                    sub = "%s.%s" % (node.module, alias.name)
                    out.add(sub if (FIRMWARE / "lib" / node.module / (alias.name + ".py")).exists() else node.module)
            else:
                out.add(node.module)
                out.add(node.module.split(".")[0])  # a package's __init__ runs first
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] in BOARD_PACKAGES)
    return out


def board_modules():
    """Every module main.py reaches, following imports."""
    seen, todo = set(), [FIRMWARE / "main.py"]
    while todo:
        for mod in imported_by(todo.pop()):
            parts = mod.split(".")
            path = FIRMWARE / "lib" / Path(*parts).with_suffix(".py")
            if len(parts) == 1:
                path = FIRMWARE / "lib" / parts[0] / "__init__.py"
            if mod not in seen:
                seen.add(mod)
                todo.append(path)
    return seen


def test_the_manifest_lists_exactly_the_modules_the_board_imports():
    listed = set()
    for _, remote in manifest.entries():
        if remote.startswith("lib/"):
            pkg, name = remote[4:-3].split("/")
            listed.add(pkg if name == "__init__" else "%s.%s" % (pkg, name))
    assert listed == board_modules()
    host_only = {"cribrules.show", "cribrules.barbu", "cribrules.piquet", "cribrules.cards", "cribrules.discard"}
    assert host_only.isdisjoint(listed)
    assert "main.py" in [remote for _, remote in manifest.entries()]


def test_package_json_is_made_from_the_manifest():
    text = (FIRMWARE / "package.json").read_text()
    assert text == manifest.package_json(__version__), "run `make package-json`"
    urls = json.loads(text)["urls"]
    for _, src in urls:  # every file it names is there, relative to package.json
        assert (FIRMWARE / src).resolve().is_file(), src
    assert ["board.json", "../hardware/boards/pico.json"] in urls


def test_the_installed_package_carries_the_firmware_and_the_hardware_data():
    assert (resources.firmware_dir() / "main.py").is_file()
    assert (resources.firmware_dir() / "manifest.py").is_file()
    assert resources.names("boards") == ["esp32s3", "feather_rp2040", "pico"]
    assert resources.names("layouts") == ["2-track", "3-track"]
    assert all(src.is_file() for src, _ in manifest.entries())


def test_a_board_keeps_a_layout_without_the_drawing_and_places_every_led_the_same():
    from cribcore.layout import Layout

    for name in resources.names("layouts"):
        full = resources.layout_file(name).read_bytes()
        kept = resources.board_layout(name)
        a, b = Layout(json.loads(full)), Layout(json.loads(kept))
        assert (b.name, b.n, b.tracks) == (a.name, a.n, a.tracks)
        assert [list(t) for t in b.hole] == [list(t) for t in a.hole]
        assert list(b.dealer) == list(a.dealer)
        assert [list(t) for t in b.points] == [list(t) for t in a.points]
        assert len(kept) * 2 < len(full)
        assert b" " not in kept.replace(b"3-track", b"").replace(b"2-track", b"")


def test_main_py_and_boot_py_are_their_two_statements_and_nothing_else():
    # A board compiles main.py and boot.py from source at every power-up,
    # reading them a few bytes at a time: three lines of comment in main.py
    # cost an emulated Pico 15 ms of its 500 ms to the first frame
    # (docs/benchmarks.md). What they do is said in cribmp.start's header.
    for path, name in ((FIRMWARE / "main.py", "run"), (FIRMWARE / "micropython_boot" / "boot.py", "rest")):
        text = path.read_text()
        assert [line for line in text.splitlines() if line] == ["from cribmp.start import " + name, name + "()"]
