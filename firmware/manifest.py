# The board's files, in MicroPython's manifest format. `cribboard flash`
# copies exactly these (compiled to .mpy, main.py as it is), package.json
# (for `mpremote mip install`) is made from them, and a custom MicroPython
# image can freeze them (FROZEN_MANIFEST=/path/to/firmware/manifest.py).
# The core's host-only modules (cards, show, pegging, piquet, barbu) are not
# here: the board never imports them. tests/host/test_manifest.py checks this
# list against what main.py really imports.
module("main.py")
package("cribcore", files=("__init__.py", "game.py", "match.py", "names.py", "partie.py", "record.py"), base_path="lib")
package(
    "cribapp",
    files=(
        "__init__.py",
        "app.py",
        "assemble.py",
        "boardview.py",
        "boardfiles.py",
        "button.py",
        "codes.py",
        "compat.py",
        "config.py",
        "crashlog.py",
        "flashfs.py",
        "layout.py",
        "menu.py",
        "matchstate.py",
        "link.py",
        "persist.py",
        "piquetview.py",
        "render.py",
        "seal.py",
        "selftest.py",
        "session.py",
        "showcount.py",
        "store.py",
        "usbstream.py",
        "watchdog.py",
    ),
    base_path="lib",
)
