# A MicroPython image with the board app's library frozen in: its code and
# names stay in flash instead of on the heap (docs/frozen.md). An option for
# makers who build their own image; this project neither builds nor measures
# one. In a MicroPython checkout's ports/rp2 (or ports/esp32):
#   make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/cribboard/firmware/manifest_frozen.py
# main.py stays a file on the board (`cribboard flash` copies it), so the
# board can still be updated; a frozen module is found before /lib's.
include("$(PORT_DIR)/boards/manifest.py")  # the port's own frozen modules (neopixel among them)
include("manifest_lib.py")
include("manifest_mp.py")
