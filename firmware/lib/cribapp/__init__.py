# The board's application: input, render, store, link and the app loop.
# Hardware is passed in: the edges (cribmp, MicroPython's; cribcp,
# CircuitPython's) build it.

from cribcore import __version__ as FIRMWARE_VERSION  # one version for the whole project

__all__ = ["FIRMWARE_VERSION"]
