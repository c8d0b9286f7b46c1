# Stand-ins for MicroPython's hardware modules (machine, neopixel, network)
# and the simulated board that runs on them. They are never imported as
# cribboard.mp: each is a top-level module on the simulated board's path.
# This file makes the folder a package only so that the import contracts
# (pyproject.toml) see what it imports: the board's code, never the host's.
