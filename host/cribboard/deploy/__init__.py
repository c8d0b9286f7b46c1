# Putting the firmware on a board: its files and compiled modules, mpremote's
# raw REPL (flash), a CIRCUITPY drive (drive).
