# The host's end of the serial link (docs/protocol.md), over pyserial: any
# port name or URL pyserial knows, a pty of the simulated board included.
import errno
import json
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import serial

from cribapp.seal import seal, unseal
from cribboard.errors import CribboardError
from cribboard.i18n import _
from cribboard.records import MAX_INT, out_of_order
from cribboard.said import core_from_data, said
from cribboard.waits import seconds
from cribcore import CoreError

log = logging.getLogger("link")  # cribboard --verbose shows every line each way
TRIES = 3
LINK_WAIT_S = 3.0  # a try's wait for the board's answer, unless CRIBBOARD_LINK_WAIT says otherwise
PROTOCOLS = (1, 2, 3, 4, 5)  # 2 added NAMES, 3 CONF, 4 RESEND, 5 ERC
BUSY_S = 30.0  # a port another cribboard holds: how long to wait for it (a long sync takes seconds)
BUSY_POLL_S = 0.2


class LinkError(CribboardError):
    pass


class Garbled(LinkError):
    """A reply arrived damaged; asking again will do."""


def core_error(text: str) -> CoreError | None:
    """The CoreError an ERC line carries ([code, values], a value that is one itself as {"e": ...}); None for
    one that is not (a lying line is then said as the board's English)."""
    try:
        return core_from_data(json.loads(text))
    except (ValueError, RecursionError):
        return None


def link_wait() -> float:
    """Seconds to wait for a board's answer, each try (CRIBBOARD_LINK_WAIT; a board answers in
    milliseconds, a simulated one on a very busy machine may take seconds)."""
    return seconds("CRIBBOARD_LINK_WAIT", LINK_WAIT_S)


class BoardLink:
    def __init__(
        self,
        port: str,
        timeout: float | None = None,
        tell: Callable[[str], None] | None = None,
        busy_s: float = BUSY_S,
    ) -> None:
        # tell(text): what is being waited for, as it happens (the command line's stderr)
        self.tell = tell
        self.timeout = link_wait() if timeout is None else timeout  # a wrong setting is said before any port
        self.serial = self._open(port, busy_s)
        self.port = port
        self.junk = 0  # lines that failed their check
        self.heard: list[str] = []  # the last few of them: who answered, if not the Cribboard program
        self.proto = 0  # the board's protocol, once it said HELLO (0: not yet)
        self._buf = b""
        self._late: tuple[int, tuple[str, ...]] = (0, ())  # answers a slow board still owes, and their last words

    def _open(self, port: str, busy_s: float) -> serial.Serial:
        """The port, locked for this process alone: two programs reading one
        port each get half of every reply. Another cribboard holding it (a
        sync, a live page) is waited for, up to busy_s."""
        deadline = time.monotonic() + busy_s
        told = False
        while True:
            try:
                return serial.serial_for_url(port, baudrate=115200, timeout=0.1, exclusive=True)
            except serial.SerialException as e:
                if e.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                    raise LinkError(_("cannot open %s: %s") % (port, e)) from None
            except OSError as e:
                raise LinkError(_("cannot open %s: %s") % (port, e)) from None
            if time.monotonic() >= deadline:
                raise LinkError(_("%s is in use by another program (a `cribboard sync` or `live` on it?)") % port)
            if not told and self.tell is not None:
                self.tell(_("waiting for %s: another program is using it") % port)
                told = True
            time.sleep(BUSY_POLL_S)

    def close(self) -> None:
        self.serial.close()

    def _readline(self, deadline: float) -> bytes | None:
        while b"\n" not in self._buf:
            if time.monotonic() > deadline:
                return None
            try:
                self._buf += self.serial.read(self.serial.in_waiting or 1)
            except (serial.SerialException, OSError) as e:
                raise LinkError(_("the board went away: %s") % e) from None
        line, self._buf = self._buf.split(b"\n", 1)
        return line

    def send(self, text: str) -> None:
        # A CONF line carries the club's WiFi password or key: never in the log.
        log.debug("> %s", "CONF (not shown)" if text.startswith("CONF ") else ascii(text)[1:-1])
        try:
            self.serial.write(seal(text))
            self.serial.flush()
        except (serial.SerialException, OSError) as e:
            raise LinkError(_("the board went away: %s") % e) from None

    def replies(self, deadline: float, give_up: Callable[[], bool] | None = None) -> Iterator[str]:
        """Sealed lines from the board until the deadline; others are skipped
        (and end the wait at once if give_up() says what they are is no
        Cribboard program)."""
        while True:
            raw = self._readline(deadline)
            if raw is None:
                return
            text = unseal(raw)
            if text is None:
                if raw.strip():
                    self.junk += 1
                    self.heard = (self.heard + [raw.decode("utf-8", "replace").strip()])[-8:]
                    log.debug("< (fails its check) %s", ascii(raw[:200])[2:-1])
                    if give_up is not None and give_up():
                        return
                continue
            log.debug("< %s", ascii(text[:300])[1:-1])
            yield text

    def ask(
        self,
        text: str,
        last: tuple[str, ...],
        give_up: Callable[[], bool] | None = None,
        waiting: Callable[[], None] | None = None,
    ) -> list[str]:
        """Send a command; collect sealed replies up to one starting with a
        word in `last` (or ERR). A garbled exchange is asked again, unless
        give_up() says what answers is no Cribboard program; waiting() is
        called once the first try went unanswered."""
        self._drain_late()
        unanswered = 0
        for attempt in range(TRIES):
            if attempt and give_up is not None and give_up():
                break
            if attempt == 1 and waiting is not None:
                waiting()
            self.send(text)
            got = []
            coded = None  # a refusal's code and values (ERC, protocol 5), said in the reader's language
            for reply in self.replies(time.monotonic() + self.timeout, give_up):
                if reply.startswith("ERR crc"):
                    break  # our line was garbled on the way: send it again
                if reply.startswith("ERC "):
                    coded = core_error(reply[4:])
                    continue
                if reply.startswith("ERR"):
                    raise LinkError(_("the board said: %s") % (reply if coded is None else said(coded)))
                if reply.startswith("EV ") or reply == text:
                    continue  # a live event, or our own line echoed by a REPL (no program runs)
                got.append(reply)
                if reply.split(" ", 1)[0] in last:
                    self._late = (unanswered, last)
                    return got
            else:
                unanswered += 1  # no answer in time: a slow board may still answer this try, later
        raise LinkError(_("no answer to %s from %s: %s") % (text.split()[0], self.port, self.who()))

    def _drain_late(self) -> None:
        """Read away the answers still owed to tries that went unanswered in
        time, before the next command: a board too slow for the first HELLO
        or LIST answers it after the second, and that late answer must not
        be taken for the next command's (a LIST's END for CRASHES's).
        Waits at most one timeout, and only after such a try."""
        owed, last = self._late
        self._late = (0, ())
        if not owed:
            return
        for reply in self.replies(time.monotonic() + self.timeout):
            if reply.startswith("ERR") or reply.split(" ", 1)[0] in last:
                owed -= 1
                if not owed:
                    return

    def what_answers(self) -> str | None:
        """What answered instead of the Cribboard program, if it can be told:
        "deploy" (the deploy-error pattern), "circuitpython", "repl"; None."""
        heard = " ".join(self.heard)
        if "the last deploy did not finish" in heard:
            return "deploy"
        if "CircuitPython" in heard:
            return "circuitpython"
        if "MicroPython" in heard or ">>>" in heard:
            return "repl"
        return None

    def _say(self, text: str) -> None:
        if self.tell is not None:
            self.tell(text)

    def who(self) -> str:
        """In words, what answered instead of the Cribboard program, and what to do."""
        heard = " ".join(self.heard)
        kind = self.what_answers()
        if kind == "deploy":  # cribapp.mpmain, blinking the deploy-error pattern
            return (
                _(
                    "it blinks the deploy-error pattern: its last deploy did not finish; run "
                    "`cribboard flash --port %s` again"
                )
                % self.port
            )
        if kind == "circuitpython":
            return _(
                "it runs CircuitPython but not the Cribboard program: copy it onto the board's drive "
                "with `cribboard flash --drive PATH`"
            )
        if kind == "repl":
            banner = next((h for h in self.heard if "MicroPython" in h), _("MicroPython's REPL"))
            return _(
                "it answers as %(banner)s, not the Cribboard program: put it on with `cribboard flash --port %(port)s`"
            ) % {"banner": ascii(banner[:60])[1:-1], "port": self.port}
        if heard:
            return _("something other than a Cribboard board answered (%s)") % ascii(heard[:60])[1:-1]
        return _("nothing answered (is a board plugged in there, and running?)")

    def hello(self) -> dict[str, Any]:
        """HELLO, waking a board that sits at its REPL by soft-rebooting it.
        What is waited for is told (tell) once the first try goes unanswered;
        a board that shows it cannot run the program is given up at once."""
        self.serial.write(b"\n")
        try:
            return self._hello()
        except LinkError:
            if self.what_answers() in ("deploy", "circuitpython"):
                raise  # a reboot would not help: who() says what will
            self._say(
                _(
                    "%s: no answer from the Cribboard program; restarting what runs there (a soft reboot) "
                    "and asking again (up to %d s)"
                )
                % (self.port, TRIES * self.timeout + 2)
            )
            self.serial.write(b"\x03\x02\x04")  # stop, leave raw REPL, soft reboot: main.py runs
            time.sleep(1.5)
            self.serial.reset_input_buffer()
            self._buf = b""
            self._late = (0, ())  # owed by the program just restarted: never coming
            self.heard = []
            return self._hello()

    def _hello(self) -> dict[str, Any]:
        def give_up() -> bool:
            return self.what_answers() is not None  # junk we can name: no use asking the same again

        def waiting() -> None:
            self._say(
                _("%(port)s: no answer yet; waiting up to %(s)d s more for the board's program")
                % {"port": self.port, "s": (TRIES - 1) * self.timeout}
            )

        (line,) = self.ask("HELLO", ("HELLO",), give_up, waiting)[-1:]
        fields: dict[str, Any] = {}
        for word in line.split()[1:]:
            key, _sep, value = word.partition("=")
            fields[key] = int(value) if value.isdigit() and value.isascii() and len(value) < 12 else value
        if fields.get("proto") not in PROTOCOLS:
            raise LinkError(
                _("the board speaks protocol %r; this tool speaks %s")
                % (fields.get("proto"), ", ".join(str(p) for p in PROTOCOLS))
            )
        self.proto = fields["proto"]
        return fields

    def records(self, since: int, limit: int = 50) -> tuple[list[tuple[int, str]], int]:
        """[(seq, record's JSON text)] after since, in order, and the board's
        last seq. A REC line that fails its CRC is never returned: the caller
        asks again. Whether a record is a game is the caller's to check."""
        lines = self.ask("LIST %d %d" % (since, limit), ("END",))
        out = []
        for line in lines[:-1]:
            if not line.startswith("REC "):
                continue
            _rec, seq, body = (line + " ").split(" ", 2)
            out.append((self._number(seq, _("a record numbered")), body.rstrip(" ")))
        words = lines[-1].split()
        if len(words) != 3:
            raise LinkError(_("the board ended a listing with %r") % lines[-1][:60])
        count, last = self._number(words[1], _("a listing of")), self._number(words[2], _("a last record of"))
        if count != len(out):
            raise Garbled(_("the board sent %d records but %d arrived whole") % (count, len(out)))
        seqs = [seq for seq, _body in out]
        wrong = out_of_order(seqs, since, last)
        if wrong is not None:
            if seqs[wrong] > MAX_INT:
                raise LinkError(
                    _("the board sent %s %r, not a sequence number") % (_("a record numbered"), str(seqs[wrong]))
                )
            previous = seqs[wrong - 1] if wrong else since
            raise LinkError(
                _(
                    "the board answered LIST %d with record %d after %d (its last is %d): "
                    "it is not keeping its log in order"
                )
                % (since, seqs[wrong], previous, last)
            )
        return out, last

    @staticmethod
    def _number(word: str, what: str) -> int:
        if not word.isdigit() or not word.isascii() or len(word) > 10:
            raise LinkError(_("the board sent %s %r, not a sequence number") % (what, word[:20]))
        return int(word)

    def ack(self, seq: int) -> None:
        self.ask("ACK %d" % seq, ("OK",))

    def crashes(self) -> list[tuple[int, int, str]]:
        """The board's crash log: [(boot, uptime_ms, traceback text)], oldest
        first; [] from a board too old to keep one (protocol 1)."""
        if not self.proto:
            self.hello()
        if self.proto < 2:
            return []
        lines = self.ask("CRASHES", ("END",))
        out = []
        for line in lines[:-1]:
            if line.startswith("CRASH "):
                parts = (line + " ").split(" ", 3)
                try:
                    text = json.loads(parts[3])
                except ValueError:
                    text = None
                if not isinstance(text, str):
                    raise LinkError(_("the board sent a crash that is not text: %r") % line[:60])
                out.append(
                    (self._number(parts[1], _("a crash of boot")), self._number(parts[2], _("an uptime of")), text)
                )
        if lines[-1] != "END %d" % len(out):
            raise Garbled(_("the board listed %s but %d crashes arrived whole") % (lines[-1][4:], len(out)))
        return out

    def clear_crashes(self, n: int) -> None:
        """Drop the board's oldest n crashes (stored here)."""
        self.ask("CRASHES CLEAR %d" % n, ("OK",))

    def set_names(self, names: list[str]) -> None:
        """The players' names, one a track (protocol 2)."""
        if not self.proto:
            self.hello()
        if self.proto < 2:
            raise LinkError(_("the board's firmware is too old to take names: update it with `cribboard flash`"))
        self.ask("NAMES " + json.dumps(names, ensure_ascii=False), ("OK",))

    def resend(self) -> None:
        """Every game in the board's log is to go to its club's server again (the sent-cursor back to 0:
        protocol 4). USB sync is not affected."""
        if not self.proto:
            self.hello()
        if self.proto < 4:
            raise LinkError(_("the board's firmware cannot send its games again: update it with `cribboard flash`"))
        self.ask("RESEND", ("OK",))

    def keep_config(self, kind: str, data: dict[str, Any]) -> None:
        """The club's WiFi (kind "wifi": ssid, password) or server (kind
        "club": server, key), kept on the board (protocol 3)."""
        if not self.proto:
            self.hello()
        if self.proto < 3:
            raise LinkError(_("the board's firmware is too old to report to a club: update it with `cribboard flash`"))
        self.ask("CONF %s %s" % (kind, json.dumps(data)), ("OK",))

    def set_time(self, unix: int) -> None:
        self.ask("TIME %d" % unix, ("OK",))

    def state(self) -> dict[str, Any]:
        line = self.ask("STATE", ("STATE",))[-1]
        try:
            state = json.loads(line[6:])
        except ValueError:
            state = None
        if not isinstance(state, dict):
            raise LinkError(_("the board sent a state that is not a JSON object: %s") % ascii(line[6:66]))
        return state

    def watch(self, on: bool = True) -> None:
        self.ask("WATCH %s" % ("on" if on else "off"), ("OK",))

    def events(self) -> Iterator[dict[str, Any]]:
        """Live events until the board goes away."""
        while True:
            for reply in self.replies(time.monotonic() + 1.0):
                if reply.startswith("EV "):
                    try:
                        ev = json.loads(reply[3:])
                    except ValueError:
                        ev = None
                    if isinstance(ev, dict):
                        yield ev
                    else:
                        log.debug("an event that is not a JSON object: %s", ascii(reply[:200]))
