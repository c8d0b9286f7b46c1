# The simulated board on CPython, for machines where MicroPython's unix port
# cannot be installed: the same firmware and simulated hardware, the link on
# the pty, but no REPL (so no mpremote and no cribboard flash).
# Usage: python cpython_board.py FLASH_DIR HW_PORT BOARD_ID_HEX
import os
import select
import sys
import time
from binascii import unhexlify


class PtyStream:
    def __init__(self):
        self.fd_in = sys.stdin.fileno()
        self.fd_out = sys.stdout.fileno()

    def readinto(self, buf):
        if not select.select([self.fd_in], [], [], 0)[0]:
            return None
        data = os.read(self.fd_in, 1)
        if not data:
            return None
        buf[0] = data[0]
        return 1

    def write(self, data):
        if select.select([], [self.fd_out], [], 0.2)[1]:
            os.write(self.fd_out, data)


def main():
    flash, port, ident = sys.argv[1], int(sys.argv[2]), unhexlify(sys.argv[3])
    sys.path.insert(0, os.path.join(flash, "lib"))  # the board's files, as on a board (simhw's ticks too)
    sys.path.insert(0, flash)
    import simhw

    simhw.connect(port, ident)
    os.chdir(flash)
    from cribmp import start as firmware  # MicroPython's ticks, wrap-around included

    from cribapp import compat

    app = firmware.build("", PtyStream(), compat)
    try:
        while True:
            app.step()
            time.sleep(0.002)
    except simhw.HostGone:
        return  # the simulator has gone: no orphan board


main()
