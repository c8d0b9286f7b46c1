# The USB serial line as the link's byte stream: reads only what has
# arrived (never blocks the buttons), writes whole lines. Ctrl-C still
# interrupts, so mpremote can always take the board back.
import select
import sys


class UsbStream:
    def __init__(self):
        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def readinto(self, buf):
        for _ in self.poller.ipoll(0):
            return self.inp.readinto(buf)
        return None

    def write(self, data):
        self.out.write(data)
