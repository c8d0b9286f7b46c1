# The simulated board's `machine`: pins read the levels the host sends.
import simhw


class Pin:
    IN, OUT, PULL_UP, PULL_DOWN = 0, 1, 1, 2

    def __init__(self, pin_id, mode=-1, pull=-1):
        self.pin_id = pin_id

    def value(self, v=None):
        if v is None:
            simhw.poll()
            return simhw.levels.get(self.pin_id, 1)
        simhw.levels[self.pin_id] = v


def unique_id():
    return simhw.board_id


def reset():
    raise simhw.Reset()


def soft_reset():
    raise simhw.Reset()
