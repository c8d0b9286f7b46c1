# Stand-ins for CircuitPython's hardware modules (board, digitalio, ...) and
# the simulated board that runs on them. They are never imported as
# cribboard.cp: each is a top-level module on the simulated board's path.
# This file makes the folder a package only so that the import contracts
# (pyproject.toml) see what it imports: the board's code, never the host's.
