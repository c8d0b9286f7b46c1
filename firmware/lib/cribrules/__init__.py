# The core's host side: the rules the board never needs, pure Python that
# runs unchanged on MicroPython, CircuitPython and CPython (the tests run it
# on MicroPython's ports) but is never copied to a board (manifest_lib.py
# lists cribcore only): the cards (a hand's show, pegging, the discard, a
# piquet deal, barbu's contracts) and a board's record replayed through the
# board's own ledger (cribcore). It imports cribcore; cribcore and the
# board's app never import it.
