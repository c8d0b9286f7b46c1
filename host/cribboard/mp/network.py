# The simulated Pico W's `network`: a WLAN station as MicroPython v1.28.0's
# rp2 port has it (the CYW43 driver): connect() returns at once and the
# join goes on in the background; isconnected() says True once joined with
# an address; a network that goes away drops the link, and the program must
# connect() again (nothing rejoins by itself). Whether the club's WiFi is
# in range is the host's to say (simhw.wifi: "W 1" / "W 0"). The sockets are
# the unix port's own, on the host's network.
import simhw

STA_IF = 0
AP_IF = 1
# rp2's WLAN.status() codes (CYW43_LINK_*).
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_GOT_IP = 3
STAT_CONNECT_FAIL = -1
STAT_NO_AP_FOUND = -2
STAT_WRONG_PASSWORD = -3

JOIN_MS = 1500  # a join's scan, association and DHCP take a few seconds on a Pico W


class WLAN:
    IF_STA = STA_IF
    IF_AP = AP_IF

    def __init__(self, interface=STA_IF):
        if interface not in (STA_IF, AP_IF):
            raise ValueError("unknown interface")
        self._active = False
        self._joining_since = None  # the board's ticks at connect(), while a join is under way
        self._status = STAT_IDLE

    def active(self, on=None):
        if on is None:
            return self._active
        self._active = bool(on)
        if not on:
            self._joining_since = None
            self._status = STAT_IDLE
        return None

    def connect(self, ssid=None, key=None, **kwargs):
        if not self._active:
            # Stricter than may be needed: whether rp2 joins on an interface not made active is not checked
            # here; the firmware calls active(True) first either way.
            raise OSError(-1)
        if not isinstance(ssid, str) or not ssid:
            raise TypeError("ssid")
        self._joining_since = simhw.ticks_ms()
        self._status = STAT_CONNECTING

    def disconnect(self):
        self._joining_since = None
        self._status = STAT_IDLE

    def status(self, param=None):
        self._update()
        return self._status

    def isconnected(self):
        self._update()
        return self._status == STAT_GOT_IP

    def _update(self):
        simhw.poll()  # hear the host: the WiFi may have come or gone
        if self._status == STAT_GOT_IP and not simhw.wifi:
            self._status = STAT_NO_AP_FOUND  # the link is down until the program connects again
        elif self._status == STAT_CONNECTING and simhw.ticks_diff(simhw.ticks_ms(), self._joining_since) >= JOIN_MS:
            self._joining_since = None
            self._status = STAT_GOT_IP if simhw.wifi else STAT_NO_AP_FOUND
