# MicroPython runs boot.py at every reset, a soft one too (Ctrl-D, or
# mpremote before it works on the board), and main.py only after a reset
# into the friendly REPL. rp2's watchdog, once the app has started it, runs
# until a hard reset, but a soft reset ends the timer that fed it: a board
# left at its REPL by mpremote would restart 8 s later, mid-install. So the
# watchdog is fed from here while the board rests; the app's loop takes it over.
from cribapp.mpmain import rest

rest()
