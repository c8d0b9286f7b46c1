# Not copied to a board: it makes this folder a package of the installed
# host tool, which reads MicroPython's boot.py from it.
