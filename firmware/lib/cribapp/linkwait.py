# The serial link's stand-in until a host first speaks: a board at a table
# with no computer never loads the link's code (on a board, loaded code is
# heap). It reads what arrives; the first byte loads cribapp.link (and
# cribapp.hostapi, what it may ask), which takes that byte and is the
# board's link from then on.


class LinkWait:
    def __init__(self, stream, app):
        self.stream = stream
        self.app = app
        self._byte = bytearray(1)

    def poll(self):
        try:
            got = self.stream.readinto(self._byte)
        except OSError:
            return
        if got:
            from cribapp.hostapi import HostApi
            from cribapp.link import Link

            link = Link(self.stream, HostApi(self.app))
            self.app.attach(link)
            link.take(self._byte[0])
            link.poll()

    def listening(self):
        return False  # nobody has asked for live events yet
