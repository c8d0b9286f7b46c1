# The board's files, in MicroPython's manifest format. `cribboard flash`
# copies exactly these (compiled to .mpy; main.py and boot.py as they are), package.json
# (for `mpremote mip install`) is made from them, and a custom MicroPython
# image can freeze the library (manifest_frozen.py, docs/frozen.md).
# tests/host/test_manifest.py checks this list against what main.py really
# imports.
module("main.py")
module("boot.py", base_path="micropython_boot")  # MicroPython's (firmware/boot.py is CircuitPython's)
include("manifest_lib.py")
include("manifest_mp.py")
