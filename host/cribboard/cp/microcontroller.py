# Stand-in for CircuitPython's microcontroller: Pin objects and cpu.uid.
import simcp
from watchdog import WatchDogTimer


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board.%s" % self.name


class Processor:
    @property
    def uid(self):
        return simcp.uid


cpu = Processor()
watchdog = WatchDogTimer()
