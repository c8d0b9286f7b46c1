# The USB serial line as the link's byte stream: reads only what has
# arrived (never blocks the buttons), writes whole lines. The USB layer's
# own Ctrl-C is turned off while the app runs (main.py turns it back on
# when the app ends): a stray 0x03 inside a link line would otherwise stop
# the program and leave the rest of the line to the REPL. The link decides
# instead (cribapp.link.Link.take): Ctrl-C between lines, or after a CR as
# mpremote sends it, still stops the program.
import select
import sys

import micropython

_WAIT_MS = 200


class UsbStream:
    def __init__(self):
        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.writable = select.poll()
        self.writable.register(sys.stdout, select.POLLOUT)
        self.dropped = 0
        micropython.kbd_intr(-1)

    def readinto(self, buf):
        for _ in self.poller.ipoll(0):
            return self.inp.readinto(buf)
        return None

    def write(self, data):
        # A host that reads slower than we write gets a moment to catch up;
        # with nobody reading at all (no host, or one that left mid-stream)
        # the line is dropped rather than stop the board, as USB does.
        for _ in self.writable.ipoll(_WAIT_MS):
            self.out.write(data)
            return
        self.dropped += 1
