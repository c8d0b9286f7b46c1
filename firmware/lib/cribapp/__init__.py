# The board's application: input, render, store, link and the app loop.
# Hardware is passed in; only main.py builds it.

FIRMWARE_VERSION = "0.1.0"
