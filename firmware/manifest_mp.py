# MicroPython's edge of the board (CircuitPython's is cribcp, in
# manifest_circuitpython.py): the power-up and loop main.py runs, the USB
# serial line, the watchdog fed. Included by manifest.py (the board's files)
# and manifest_frozen.py (an image with the library frozen in).
package("cribmp", files=("__init__.py", "start.py", "usbstream.py", "watchdog.py"), base_path="lib")
