# A board's reports to its club's server: its unsent games in order, then
# its live state on each change. A state machine the main loop polls once a
# pass, one short step each (join, build, connect, send a segment, read,
# check the answer), on a non-blocking socket: play never waits on the
# network. The sent-cursor is the one USB sync moves (the host face's
# acknowledge), and only a signed answer that names this board, this
# request and the last game stored moves it. Failures back off, 1 s doubling
# to a minute; games wait in the log meanwhile. Each request says the cursor
# ("after"); a club that lacks that game (restored from an older backup)
# answers "resend", and the cursor goes back there: the games are sent
# again, by themselves. The network is passed in: a WLAN (active, connect,
# isconnected) and a socket module.
import errno
import json
import select
from hashlib import sha256

from cribapp import FIRMWARE_VERSION
from cribapp.compat import const
from cribcore import TICKS_PERIOD
from cribcore import clubwire as wire
from cribcore.clubwire import GAMES, LIVE, REQUEST_MS
from cribcore.signing import pads, signature

_JOIN_MS = const(20000)  # a join not up by then is started again
_CHECK_MS = const(1000)  # how often the WLAN is asked whether it is still joined (and a join whether it is up)
_LIVE_GAP_MS = const(300)  # live states at most about three a second
_BACKOFF_MS = const(1000)  # after a failure; doubled after each one more...
_BACKOFF_MAX_MS = const(60000)  # ...up to a minute
_JOIN_BACKOFF_MAX_MS = const(8000)  # a failed join costs only the radio: the club's WiFi is noticed soon after it is up
_BATCH = const(3)  # games in one request (a record is 1-3 KB: the body stays small on the heap)
_SEGMENT = const(536)  # bytes sent in one pass (TCP's smallest segment)
_ANSWER_MAX = const(2048)  # an answer longer than this is no club server's

# What the sender is doing. A request goes through the states from _ENCODING
# on, one a pass: each of them takes a few ms at most on a Pico (measured:
# docs/benchmarks.md), so a press is drawn within its frame whatever the
# sender is doing.
_OFF = const(0)  # not joined: join when the backoff is over
_JOINING = const(1)
_READY = const(2)  # joined; a request goes out when there is something to send
_ENCODING = const(3)  # a games request: one record encoded a pass
_SIGNING = const(4)
_OPENING = const(5)
_CONNECTING = const(6)
_SENDING = const(7)  # one segment a pass
_READING = const(8)
_CHECKING = const(9)  # the whole answer in: its signature and what it says

# The request counter, [boot, n, key]: "BOOT.N", each after the last. It belongs to the power-up and the
# key, not to one sender: a sender started again (new WiFi settings, games sent again) must not use an N the
# server has taken; a new key (a pairing, a rotation) starts the count afresh, as the server does. The club
# may move it on (its signed 409: a boot count that went back with a state the board could not read), never
# past what a board can count (wire.COUNT_MAX).
_count = [0, 0, None]


def _blocked(e):
    return e.args and e.args[0] in (errno.EAGAIN, errno.EINPROGRESS, errno.EALREADY)


class Sender:
    def __init__(self, face, wlan, sockets, clock, wifi, club):
        self.face = face
        self.wlan = wlan
        self.sockets = sockets
        self.clock = clock
        self._diff = clock.ticks_diff
        self.wifi = wifi  # {"ssid", "password"}
        self.pads = pads(club["key"].encode())  # the key, padded once (cribcore.signing)
        self.host, self.port, self.hostport = wire.address(club["server"])
        fields = face.hello_fields()
        self.board, self.boot = fields[0], fields[1]
        if _count[0] < self.boot or _count[2] != club["key"]:
            _count[0], _count[1], _count[2] = self.boot, 0, club["key"]
        self.state = _OFF
        self.at = clock.ticks_ms()  # when the state last changed (a join's or a request's start)
        self.wait_until = self.at  # the backoff: nothing is tried before
        self.checked_at = self.at
        self.backoff = _BACKOFF_MS
        self.shown = -1  # the face's changes() at the live state last acknowledged
        self.live_at = self.at
        self.skipped = 0  # records after this one the log could not give (torn lines): not asked for again
        self.sent = 0  # the sent count: requests answered (for the tests and the bench)
        self.failures = 0
        self._sock = None
        self._poller = None
        self._records = []  # a games request's records, and each one's JSON as it is encoded
        self._parts = []
        self._body = b""
        self._out = b""  # the request's bytes, and how many have gone
        self._gone = 0
        self._in = bytearray()  # the answer, as it comes
        self._path = GAMES
        self._counter = ""
        self._last = 0  # the last seq in a games request
        self._after = 0  # the sent-cursor when it was made
        self._changes = 0

    def busy(self):
        """Whether a request is under way."""
        return self.state >= _ENCODING

    def waiting(self, now):
        """ms until the backoff lets the next request go (0: it may go now)."""
        return max(0, self._diff(self.wait_until, now))

    # --- the loop's step ----------------------------------------------------
    def poll(self, now):
        """One step, if one is due. Allocates nothing while there is nothing to send."""
        state = self.state
        diff = self._diff
        if state == _READY:
            if diff(now, self.checked_at) >= _CHECK_MS:
                self.checked_at = now
                if not self.wlan.isconnected():
                    self.state = _OFF
                    return
            if diff(now, self.wait_until) < 0:
                return
            face = self.face
            if face.last_seq() > max(face.acked(), self.skipped):
                self._games(now)
            elif face.changes() != self.shown and diff(now, self.live_at) >= _LIVE_GAP_MS:
                self._live(now)
        elif state == _OFF:
            if diff(now, self.wait_until) >= 0:
                self._join(now)
        elif state == _JOINING:
            if diff(now, self.checked_at) >= _CHECK_MS // 4:
                self.checked_at = now
                if self.wlan.isconnected():
                    self.state = _READY
                    self.backoff = _BACKOFF_MS
                elif diff(now, self.at) >= _JOIN_MS:
                    self._failed(now)
        else:
            self._io(now)

    def _join(self, now):
        try:
            self.wlan.active(True)
            if not self.wlan.isconnected():
                self.wlan.connect(self.wifi["ssid"], self.wifi["password"])
        except OSError:
            self._failed(now)
            return
        self.state = _JOINING
        self.at = self.checked_at = now

    # --- a request ------------------------------------------------------------
    def _games(self, now):
        acked = max(self.face.acked(), self.skipped)
        records = self.face.records_since(acked, _BATCH)
        if not records:  # the rest of the log fails its checks: never sent, by USB either
            self.skipped = self.face.last_seq()
            return
        self._records = records
        self._parts = []
        self._after = self.face.acked()  # what the board was told was stored (the club checks it holds it)
        self._last = records[-1][0]
        self._path = GAMES
        self.at = now
        self.state = _ENCODING

    def _encode(self):
        """One record's JSON a pass (3 ms of escaping each on a Pico); the body in the pass after."""
        records, parts = self._records, self._parts
        if len(parts) < len(records):
            parts.append(json.dumps(records[len(parts)][1]))
            return
        clock = self.clock
        log = self.face.log_id()  # the records' log (the host keys them by it): none from older firmware
        self._body = (
            '{"fw": %s, %s"after": %d, "boot": %d, "ticks": %d, "period": %d, "records": [%s]}'
            % (
                json.dumps(FIRMWARE_VERSION),
                '"log": "%s", ' % log if log else "",
                self._after,
                self.boot,
                clock.ticks_ms(),
                getattr(clock, "TICKS_PERIOD", TICKS_PERIOD),
                ", ".join(["[%d, %s]" % (records[k][0], parts[k]) for k in range(len(parts))]),
            )
        ).encode()
        self._records, self._parts = [], []
        self.state = _SIGNING

    def _live(self, now):
        self._changes = self.face.changes()
        face = self.face
        self._body = json.dumps({"state": face.live_state(), "log": face.log_id(), "after": face.acked()}).encode()
        self._path = LIVE
        self.at = now
        self.state = _SIGNING

    def _sign(self):
        _count[1] += 1
        counter = wire.COUNTER_OF % (_count[0], _count[1])
        body = self._body
        sig = signature(self.pads, "POST", self._path, self.board, counter, body)
        self._out = wire.request(self.hostport, self._path, self.board, counter, sig, body)
        self._body = b""
        self._gone = 0
        self._in = bytearray()
        self._counter = counter
        self.state = _OPENING

    def _open(self):
        sock = self.sockets.socket()
        self._sock = sock
        sock.setblocking(False)
        try:
            sock.connect(self.sockets.getaddrinfo(self.host, self.port)[0][-1])
        except OSError as e:
            if not _blocked(e):
                raise
        poller = select.poll()
        poller.register(sock, select.POLLOUT)
        self._poller = poller
        self.state = _CONNECTING

    def _io(self, now):
        """A request's next step."""
        if self._diff(now, self.at) >= REQUEST_MS:
            self._failed(now)
            return
        state = self.state
        try:
            if state == _ENCODING:
                self._encode()
            elif state == _SIGNING:
                self._sign()
            elif state == _OPENING:
                self._open()
            elif state == _CHECKING:
                if self._answered(self._in):
                    self.sent += 1
                    self.backoff = _BACKOFF_MS
                    self.state = _READY
                else:
                    self._failed(now)
            else:
                sock, poller = self._sock, self._poller
                if sock is None or poller is None:
                    self._failed(now)
                elif state == _CONNECTING:
                    if poller.poll(0):  # writable: connected (or failed, which the send says)
                        self.state = _SENDING
                elif state == _SENDING:
                    self._send(sock)
                else:
                    self._read(sock, now)
        except OSError as e:
            if not _blocked(e):
                self._failed(now)

    def _send(self, sock):
        out = self._out
        gone = self._gone + sock.send(out[self._gone : self._gone + _SEGMENT])
        self._gone = gone
        if gone >= len(out):
            self._out = b""
            self.state = _READING

    def _read(self, sock, now):
        got = sock.recv(512)
        data = self._in
        if got:
            data.extend(got)
            if len(data) > _ANSWER_MAX:
                self._failed(now)
                return
            if not wire.whole(data):
                return
        self._close()  # the whole answer, or the server closed the connection: checked in the next pass
        self.state = _CHECKING

    def _answered(self, data):
        """Whether the answer is the club's to this request (and the cursor moved on its word)."""
        self._in = bytearray()
        try:
            got = wire.answer(data)
            if got is None:
                return False
            status, sig, body = got
            if status not in (200, 409) or not _same(
                sig, signature(self.pads, "ACK", self._path, self.board, self._counter, body)
            ):
                return False
            said = json.loads(body)
            if status == 409:  # the club's word: its last counter taken is after this one
                boot, _dot, n = said.get("last").partition(".")
                boot, n = int(boot), int(n)
                if boot > wire.COUNT_MAX or n > wire.COUNT_MAX:
                    return False  # no board counts that far: not a word to move on
                if boot > _count[0] or (boot == _count[0] and n > _count[1]):
                    _count[0], _count[1] = boot, n
                return False
            if said.get("board") != self.board or said.get("counter") != self._counter:
                return False
            names = said.get("names")  # the club's pair for this table (and a playoff's length), signed
            if names is not None:
                self.face.seat(names, said.get("best_of"))
            if self._path == LIVE:
                self.shown = self._changes
                self.live_at = self.clock.ticks_ms()
            else:
                seq = said.get("seq")
                if type(seq) is not int or not self._last <= seq <= self.face.last_seq():
                    return False  # it holds less than was sent, or games this board never logged
                self.face.acknowledge(seq)
            resend = said.get("resend")  # the club lacks games it acknowledged (a restore): sent again from there
            if type(resend) is int and 0 <= resend < self.face.acked():
                self.face.rewind(resend)
                self.skipped = 0
            return True
        except (TypeError, ValueError, AttributeError):  # not an answer, or not JSON, or not an object
            return False

    def _failed(self, now):
        self._close()
        self.failures += 1
        joining = self.state <= _JOINING
        self.state = _OFF if joining else _READY
        wait = min(self.backoff, _JOIN_BACKOFF_MAX_MS) if joining else self.backoff
        self.wait_until = self.clock.ticks_add(now, wait)
        self.backoff = min(self.backoff * 2, _BACKOFF_MAX_MS)

    def close(self):
        """Stop: the request under way is dropped (its games go in a later one)."""
        self._close()
        self.state = _OFF

    def _close(self):
        sock = self._sock
        self._sock = self._poller = None
        self._out = self._body = b""
        self._records, self._parts = [], []
        if sock is not None:
            try:
                sock.close()
            except OSError:
                pass


def _same(a, b):
    """The signatures alike, in a time that does not tell how much of them is: their hashes compared
    (a board has no hmac.compare_digest)."""
    return sha256(a.encode()).digest() == sha256(b.encode()).digest()
