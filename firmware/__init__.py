# Not copied to a board: it makes this folder the package cribboard.firmware
# in the installed host tool, which reads main.py and manifest.py from it.
