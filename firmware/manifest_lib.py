# The board app's library: the shared core and the app, in MicroPython's
# manifest format. manifest.py adds main.py to make the board's file list
# (`cribboard flash`, package.json); manifest_frozen.py freezes these into
# a MicroPython image instead (docs/frozen.md). The core's host side
# (lib/cribrules: cards, show, pegging, piquet, barbu, replay, discard) is
# not here: the board never imports it (a contract in pyproject.toml).
package(
    "cribcore",
    files=(
        "__init__.py",
        "clubwire.py",
        "config.py",
        "game.py",
        "layout.py",
        "layoutfile.py",
        "match.py",
        "messages.py",
        "names.py",
        "partie.py",
        "record.py",
        "seal.py",
        "serialwire.py",
        "signing.py",
        "ticks.py",
    ),
    base_path="lib",
)
package(
    "cribapp",
    files=(
        "__init__.py",
        "app.py",
        "assemble.py",
        "boardfiles.py",
        "boardview.py",
        "button.py",
        "codes.py",
        "compat.py",
        "crashlog.py",
        "deploycheck.py",
        "hostapi.py",
        "link.py",
        "linkwait.py",
        "mainloop.py",
        "menu.py",
        "piquetview.py",
        "recovery.py",
        "render.py",
        "restore.py",
        "selftest.py",
        "session.py",
        "showorder.py",
        "store.py",
    ),
    base_path="lib",
)
# A WiFi board's reports to its club (loaded only on a board given a club: cribmp.start._club).
package("cribclub", files=("__init__.py", "sender.py"), base_path="lib")
