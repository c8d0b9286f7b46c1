# Cribbage scoring core shared by the board (MicroPython) and the host (CPython).
# Pure logic only: no I/O, no clock, no hardware.

__version__ = "0.1.0"
