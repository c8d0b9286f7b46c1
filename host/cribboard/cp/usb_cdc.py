# Stand-in for CircuitPython's usb_cdc: `data` is a Serial whose host side is
# two byte buffers a test (or the simulator) fills and drains.
console = None
data = None


class Serial:
    def __init__(self):
        self.incoming = bytearray()  # what the host sent
        self.outgoing = bytearray()  # what the board wrote
        self.connected = True
        self.timeout = 1.0
        self.write_timeout = None

    @property
    def in_waiting(self):
        return len(self.incoming)

    @property
    def out_waiting(self):
        return 0

    def read(self, size=-1):
        n = len(self.incoming) if size < 0 else min(size, len(self.incoming))
        out = bytes(self.incoming[:n])
        self.incoming[:n] = b""  # (slice assignment: MicroPython and CircuitPython have no bytearray item deletion)
        return out

    def readinto(self, buf):
        n = min(len(buf), len(self.incoming))
        buf[:n] = self.incoming[:n]
        self.incoming[:n] = b""  # (slice assignment: MicroPython and CircuitPython have no bytearray item deletion)
        return n

    def write(self, buf):
        self.outgoing += buf
        return len(buf)

    def flush(self):
        pass

    def reset_input_buffer(self):
        self.incoming[:] = b""

    def reset_output_buffer(self):
        pass


def enable(*, console=True, data=False):
    import simcp

    globals()["console"] = Serial() if console else None
    globals()["data"] = simcp.data_port() if data else None


def disable():
    enable(console=False, data=False)
