# The CircuitPython board's files, in MicroPython's manifest format:
# `cribboard flash --drive` copies them as source (CircuitPython compiles its
# own bytecode, in a format of its own). The shared modules are those of
# manifest.py (its main.py is MicroPython's entry and is left out);
# require() names an Adafruit library, copied from its installed PyPI package
# (adafruit_pixelbuf is built into CircuitPython itself).
include("manifest.py")
module("code.py")
module("boot.py")
package("cribcp", files=("__init__.py", "datastream.py", "hardware.py", "pins.py", "strip.py", "watch.py"),
        base_path="lib")
require("neopixel")
