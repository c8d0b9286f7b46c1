# The link's byte stream on CircuitPython's second USB serial port
# (usb_cdc.data, which boot.py enables; the REPL keeps the console port, so
# Ctrl-C there never touches the link). Reads only what has arrived, so the
# buttons stay quick; with no host listening a line is dropped, as USB does.
_WRITE_TIMEOUT_S = 0.2


class DataStream:
    def __init__(self, serial):
        self.serial = serial  # usb_cdc.data, or None when boot.py did not enable it
        self.dropped = 0
        if serial is not None:
            serial.timeout = 0
            serial.write_timeout = _WRITE_TIMEOUT_S

    def readinto(self, buf):
        serial = self.serial
        if serial is None or not serial.in_waiting:
            return None
        return serial.readinto(buf)

    def write(self, data):
        serial = self.serial
        if serial is None or not serial.connected:
            self.dropped += 1
            return
        serial.write(data)
