# Fake `machine` for running main.py off the board: pins whose level a test sets.
class Pin:
    IN, OUT, PULL_UP, PULL_DOWN = 0, 1, 1, 2
    levels = {}  # noqa: RUF012  (one table for every pin, as on a board)

    def __init__(self, pin_id, mode=-1, pull=-1):
        self.pin_id = pin_id

    def value(self, v=None):
        if v is None:
            return Pin.levels.get(self.pin_id, 1)
        Pin.levels[self.pin_id] = v


def unique_id():
    return b"\xe6\x61\x41\x04\x03\x2b\x2c\x29"


class Reset(Exception):
    """machine.reset() was called: a test sees it as this exception."""


def reset():
    raise Reset()
