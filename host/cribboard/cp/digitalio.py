# Stand-in for CircuitPython's digitalio: a pin's level is simcp.levels[name].
import simcp


class Direction:
    INPUT = "input"
    OUTPUT = "output"


class Pull:
    UP = "up"
    DOWN = "down"


class DriveMode:
    PUSH_PULL = "push_pull"
    OPEN_DRAIN = "open_drain"


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self.direction = Direction.INPUT
        self.pull = None
        self.drive_mode = DriveMode.PUSH_PULL
        self._out = False
        self.deinited = False

    def deinit(self):
        self.deinited = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self.direction, self._out, self.drive_mode = Direction.OUTPUT, value, drive_mode

    def switch_to_input(self, pull=None):
        self.direction, self.pull = Direction.INPUT, pull

    @property
    def value(self):
        if self.deinited:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        if self.direction == Direction.OUTPUT:
            return self._out
        simcp.poll(self.pin.name)
        simcp.check_watchdog()
        return simcp.levels.get(self.pin.name, self.pull != Pull.DOWN)

    @value.setter
    def value(self, level):
        if self.direction != Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self._out = bool(level)
