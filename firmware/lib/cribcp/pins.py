# A pin of the pin map as a pin of CircuitPython's `board` module.
import board


def board_pin(pin):
    """A name ("D5", "GP2") as it is; a number N as board.GPN, so that a
    Pico's MicroPython pin map serves a Pico running CircuitPython."""
    name = pin if isinstance(pin, str) else "GP%d" % pin
    found = getattr(board, name, None)
    if found is None:
        raise ValueError("this board has no pin %s (see dir(board))" % name)
    return found
