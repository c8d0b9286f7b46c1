# The CircuitPython board's files, in MicroPython's manifest format:
# `cribboard flash --drive` copies them as source (CircuitPython compiles its
# own bytecode, in a format of its own). The shared modules are those of
# manifest_lib.py (manifest.py adds MicroPython's entry, main.py and its
# boot.py); require() names an Adafruit library, copied from its installed PyPI package
# (adafruit_pixelbuf is built into CircuitPython itself).
include("manifest_lib.py")
module("code.py")
module("boot.py")
package(
    "cribcp", files=("__init__.py", "datastream.py", "hardware.py", "pins.py", "strip.py", "watch.py"), base_path="lib"
)
require("neopixel")
