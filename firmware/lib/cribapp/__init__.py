# The board's application: input, render, store, link and the app loop.
# Hardware is passed in; only main.py builds it.

from cribcore import __version__ as FIRMWARE_VERSION  # one version for the whole project

__all__ = ["FIRMWARE_VERSION"]
