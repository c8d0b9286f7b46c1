# The CircuitPython edge of the board: pins by name, Adafruit's NeoPixel
# driver, the second USB serial port. Everything above it is the shared app.
