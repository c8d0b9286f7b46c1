# The MicroPython edge of the board: its power-up and loop (start), the USB
# serial line (usbstream) and the watchdog's feeding (watchdog). Beside it,
# cribcp is CircuitPython's. Everything below it is the shared app.
