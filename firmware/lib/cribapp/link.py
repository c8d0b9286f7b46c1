# The serial link: line-based, every line sealed with a CRC, bounded in
# length. Junk, over-long or corrupt lines get an error reply and never stop
# the board. See docs/protocol.md.
import json

from cribapp import FIRMWARE_VERSION
from cribapp.compat import const, forget
from cribcore import serialwire as wire  # (its words and limits, looked up there: no copy of each on the heap)
from cribcore.seal import seal, unseal

_MAX_BODY = wire.MAX_REPLY - 64  # a record's JSON, with room for "REC <seq> " and the seal
_READ_BUDGET = const(64)  # bytes read per poll, so the buttons stay quick


class Link:
    """The link, on a byte stream, for a board that offers (cribapp.hostapi
    does): hello_fields(), records_since(seq, limit), last_seq(),
    acknowledge(seq), resend(), set_wall_time(unix), live_state(),
    set_player_names(names), crashes(), clear_crashes(n) and
    keep_config(kind, data). The board asks
    listening() before it builds an event, and event(body) sends it."""

    def __init__(self, stream, face):
        self.stream = stream
        self.face = face
        self.buf = bytearray(wire.MAX_LINE)
        self.n = 0
        self.overflow = False
        self.watching = False
        self._byte = bytearray(1)
        self._last = 0  # the byte before this one
        self.lines = 0
        self.errors = 0

    def poll(self):
        """Read what has arrived (without waiting) and answer whole lines."""
        for _ in range(_READ_BUDGET):
            try:
                got = self.stream.readinto(self._byte)
            except OSError:
                return
            if not got:
                return
            self.take(self._byte[0])

    def take(self, b):
        """One byte from the host: a newline ends a line, which is answered.
        Ctrl-C stops the program (mpremote and `cribboard flash` take the
        board that way: they send CR, Ctrl-C) at the start of a line or after
        a CR; inside a line it is a byte like any other (noise on the wire),
        and the line fails its check. The USB layer's own Ctrl-C is off while
        the link serves (usbstream), so this is where it is decided."""
        previous = self._last
        self._last = b
        if b == 3 and (self.n == 0 or previous == 13):
            self.n = 0
            raise KeyboardInterrupt
        if b == 13 and self.n == 0:
            return  # a CR between lines (mpremote's, before its Ctrl-C) starts no line
        if b == 10:
            if self.overflow:
                self.error("too-long", "a line is at most %d bytes" % wire.MAX_LINE)
            elif self.n:
                self.line(bytes(self.buf[: self.n]))
            self.n = 0
            self.overflow = False
        elif self.n < wire.MAX_LINE:
            self.buf[self.n] = b
            self.n += 1
        else:
            self.overflow = True

    def send(self, text):
        data = seal(text)
        if len(data) > wire.MAX_REPLY:
            data = seal("%s too-long reply of %d bytes" % (wire.ERR, len(data)))
        try:
            self.stream.write(data)
        except OSError:
            pass  # the host went away mid-reply; it will ask again

    def done(self, command, said):
        """OK COMMAND SAID: the command done, and what it left (a number, the names, a word)."""
        self.send("%s %s %s" % (wire.OK, command, said))

    def error(self, code, why):
        self.errors += 1
        self.send("%s %s %s" % (wire.ERR, code, why))

    def listening(self):
        return self.watching

    def event(self, body):
        self.send(wire.EV + " " + json.dumps(body))

    def line(self, raw):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if not raw:
            return
        text = unseal(raw)
        if text is None:
            self.error(wire.CRC, "line failed its check; send it again")
            return
        self.lines += 1
        words = text.split()
        if not words:
            self.error("empty", "no command")
            return
        cmd = words[0].upper()
        args = words[1:]
        try:
            if cmd == wire.HELLO:
                self.hello()
            elif cmd == wire.LIST:
                self.list(args)
            elif cmd == wire.ACK:
                self.ack(args)
            elif cmd == wire.RESEND:
                self.done(wire.RESEND, self.face.resend())
            elif cmd == wire.WATCH:
                self.watch(args)
            elif cmd == wire.TIME:
                self.time(args)
            elif cmd == wire.CRASHES:
                self.crashes(args)
            elif cmd == wire.NAMES:
                self.names(text)
            elif cmd == wire.SEAT:
                self.seat(text)
            elif cmd == wire.CONF:
                self.conf(text)
            elif cmd == wire.STATE:
                self.send(wire.STATE + " " + json.dumps(self.face.live_state()))
            else:
                self.error("unknown", "no command %s" % cmd[:16])
        except ValueError as e:
            if e.args and type(e.args[0]) is int:  # a CoreError: its code and values first, for the host
                try:  # to say in its reader's language (older hosts skip the line)
                    self.send(wire.ERC + " " + json.dumps(_coded(e)))
                except (TypeError, ValueError):
                    pass  # a value JSON cannot hold: the English alone
            self.error("args", str(e))
            forget("cribcore.messages")  # a CoreError's words, loaded to say it

    def hello(self):
        # period: where the board's ticks wrap (2**30 on MicroPython, 2**29 on CircuitPython).
        # log: the id of the board's log (records are numbered within it); none before its first game.
        board, boot, ticks, period, last, acked, log = self.face.hello_fields()
        self.send(
            "%s board=%s fw=%s proto=%d boot=%d ticks=%d period=%d seq=%d acked=%d%s"
            % (
                wire.HELLO,
                board,
                FIRMWARE_VERSION,
                wire.PROTOCOL,
                boot,
                ticks,
                period,
                last,
                acked,
                " log=" + log if log else "",
            )
        )

    def list(self, args):
        since = _number(args, 0, "LIST SINCE [LIMIT]")
        limit = _number(args, 1, "LIST SINCE [LIMIT]", wire.LIST_LIMIT)
        if limit < 1 or limit > wire.LIST_LIMIT:
            raise ValueError("LIMIT is 1 to %d" % wire.LIST_LIMIT)
        records = self.face.records_since(since, limit)
        for seq, body in records:
            if len(body) > _MAX_BODY:
                # Never sent whole, so never to block a sync: the host keeps it apart, saying why.
                body = '{"too_long": %d}' % len(body)
            self.send("%s %d %s" % (wire.REC, seq, body))
        self.send("%s %d %d" % (wire.END, len(records), self.face.last_seq()))

    def ack(self, args):
        self.done(wire.ACK, self.face.acknowledge(_number(args, 0, "ACK SEQ")))

    def watch(self, args):
        if len(args) != 1 or args[0] not in (wire.ON, wire.OFF):
            raise ValueError("WATCH on|off")
        self.watching = args[0] == wire.ON
        self.done(wire.WATCH, args[0])

    def crashes(self, args):
        """CRASHES: the crash log, one CRASH BOOT UPTIME_MS JSON a crash, then
        END N. CRASHES CLEAR N: the oldest N are dropped (the host stored them)."""
        if args and args[0].upper() == wire.CLEAR:
            n = _number(args, 1, "CRASHES CLEAR N")
            self.face.clear_crashes(n)
            self.done(wire.CRASHES, "%s %d" % (wire.CLEAR, n))
            return
        found = self.face.crashes()
        for boot, uptime, text in found:
            self.send("%s %d %d %s" % (wire.CRASH, boot, uptime, json.dumps(text)))
        self.send("%s %d" % (wire.END, len(found)))

    def names(self, text):
        """NAMES ["Ann", "Bob"]: the players' names, one a track (JSON, for
        names with spaces and in any script)."""
        try:
            names = json.loads(text[5:])
        except ValueError:
            raise ValueError('usage: NAMES ["NAME", "NAME"]') from None
        self.face.set_player_names(names)
        self.done(wire.NAMES, json.dumps(names))

    def seat(self, text):
        """SEAT {"names": ["Ann", "Bob"], "best_of": 3}: what the club's answer says over WiFi, over USB (a
        playoff table's pair, track 1 first, and the match's length: HostApi.seat)."""
        try:
            said = json.loads(text[4:])
            names = said["names"]
        except (ValueError, KeyError, TypeError):
            raise ValueError('usage: SEAT {"names": ["NAME", "NAME"], "best_of": N}') from None
        self.face.seat(names, said.get("best_of"))
        self.done(wire.SEAT, json.dumps(self.face.live_state()["names"]))

    def conf(self, text):
        """CONF wifi|club {JSON}: kept on the board; the answer never repeats it."""
        words = text.split(None, 2)
        try:
            data = json.loads(words[2])
        except (ValueError, IndexError):
            raise ValueError("usage: CONF wifi|club {JSON}") from None
        self.face.keep_config(words[1], data)
        self.done(wire.CONF, words[1])

    def time(self, args):
        unix = _number(args, 0, "TIME UNIX_SECONDS")
        self.face.set_wall_time(unix)
        self.done(wire.TIME, unix)


def _number(args, i, usage, default=None):
    if i >= len(args) and default is not None:
        return default
    try:
        n = int(args[i])
        if n >= 0:
            return n
    except (IndexError, ValueError):
        pass
    raise ValueError("usage: " + usage)


def _coded(e):
    """A CoreError as data: [code, values], a value that is itself one as {"e": [code, values]}."""
    values = e.args[1] if len(e.args) > 1 else ()
    return [
        e.args[0],
        [{"e": _coded(v)} if isinstance(v, ValueError) and v.args and type(v.args[0]) is int else v for v in values],
    ]
