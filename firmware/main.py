# What a MicroPython board runs at power-up: the edge and the loop are
# cribapp.mpmain, compiled like the rest (a source file here would be
# compiled again on every power-up).
from cribapp.mpmain import run

run()
