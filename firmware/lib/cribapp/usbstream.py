# The USB serial line as the link's byte stream: reads only what has
# arrived (never blocks the buttons), writes whole lines. Ctrl-C still
# interrupts, so mpremote can always take the board back.
import select
import sys

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

    def readinto(self, buf):
        for _ in self.poller.ipoll(0):
            n = self.inp.readinto(buf)
            if n and buf[0] == 3:
                # A board's USB layer turns Ctrl-C into KeyboardInterrupt
                # before it is read; any other byte stream (the simulated
                # board's pty) gets the same here.
                raise KeyboardInterrupt
            return n
        return None

    def write(self, data):
        # A host that reads slower than we write gets a moment to catch up;
        # with nobody reading at all (no host, or one that left mid-stream)
        # the line is dropped rather than stop the board, as USB does.
        for _ in self.writable.ipoll(_WAIT_MS):
            self.out.write(data)
            return
        self.dropped += 1
