# The host's end of the serial link: the board's commands (docs/protocol.md)
# over sealed lines (cribboard.link.lines): HELLO, LIST, ACK, CRASHES, NAMES,
# RESEND, CONF, TIME, STATE, WATCH and the live events.
import json
import time
from collections.abc import Iterator
from typing import Any

from cribboard.link.lines import TRIES, Garbled, LinkError, SealedLines, log
from cribboard.records import MAX_INT, out_of_order
from cribboard.text.i18n import _
from cribcore.serialwire import (
    ACK,
    CLEAR,
    CONF,
    CRASH,
    CRASHES,
    END,
    EV,
    HELLO,
    LIST,
    LIST_LIMIT,
    NAMES,
    OFF,
    OK,
    ON,
    PROTOCOL,
    REC,
    RESEND,
    SEAT,
    STATE,
    TIME,
    WATCH,
)

PROTOCOLS = tuple(range(1, PROTOCOL + 1))  # every one up to the board's newest (cribcore.serialwire)


class BoardLink(SealedLines):
    proto = 0  # the board's protocol, once it said HELLO (0: not yet)

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

        (line,) = self.ask(HELLO, (HELLO,), give_up, waiting)[-1:]
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

    def records(self, since: int, limit: int = LIST_LIMIT) -> tuple[list[tuple[int, str]], int]:
        """[(seq, record's JSON text)] after since, in order, and the board's
        last seq. A REC line that fails its CRC is never returned: the caller
        asks again. Whether a record is a game is the caller's to check."""
        lines = self.ask(_line(LIST, since, limit), (END,))
        out = []
        for line in lines[:-1]:
            if not line.startswith(REC + " "):
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
        self.ask(_line(ACK, seq), (OK,))

    def crashes(self) -> list[tuple[int, int, str]]:
        """The board's crash log: [(boot, uptime_ms, traceback text)], oldest
        first; [] from a board too old to keep one (protocol 1)."""
        if not self.proto:
            self.hello()
        if self.proto < 2:
            return []
        lines = self.ask(CRASHES, (END,))
        out = []
        for line in lines[:-1]:
            if line.startswith(CRASH + " "):
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
        if lines[-1] != _line(END, len(out)):
            raise Garbled(_("the board listed %s but %d crashes arrived whole") % (lines[-1][4:], len(out)))
        return out

    def clear_crashes(self, n: int) -> None:
        """Drop the board's oldest n crashes (stored here)."""
        self.ask(_line(CRASHES, CLEAR, n), (OK,))

    def set_names(self, names: list[str]) -> None:
        """The players' names, one a track (protocol 2)."""
        if not self.proto:
            self.hello()
        if self.proto < 2:
            raise LinkError(_("the board's firmware is too old to take names: update it with `cribboard flash`"))
        self.ask(_line(NAMES, json.dumps(names, ensure_ascii=False)), (OK,))

    def seat(self, names: list[str], best_of: int | None) -> list[str]:
        """A table's pair (track 1 first) and a playoff match's length (None: the board's own), as the club's
        answer gives them over WiFi (protocol 6); the names the board's tracks have after it."""
        if not self.proto:
            self.hello()
        if self.proto < 6:
            raise LinkError(_("the board's firmware cannot be told its match: update it with `cribboard flash`"))
        reply = self.ask(_line(SEAT, json.dumps({"names": names, "best_of": best_of}, ensure_ascii=False)), (OK,))[-1]
        try:
            taken = json.loads(reply.split(" ", 2)[2])
        except (IndexError, ValueError):
            taken = ()  # (no JSON at all)
        if taken is None:
            return []  # (a board whose tracks have no names yet kept its match)
        if not isinstance(taken, list):
            raise LinkError(_("the board answered a seat with a line that is not one: %r") % reply[:80])
        return [str(n) for n in taken]

    def resend(self) -> None:
        """Every game in the board's log is to go to its club's server again (the sent-cursor back to 0:
        protocol 4). USB sync is not affected."""
        if not self.proto:
            self.hello()
        if self.proto < 4:
            raise LinkError(_("the board's firmware cannot send its games again: update it with `cribboard flash`"))
        self.ask(RESEND, (OK,))

    def keep_config(self, kind: str, data: dict[str, Any]) -> None:
        """The club's WiFi (kind "wifi": ssid, password) or server (kind
        "club": server, key), kept on the board (protocol 3)."""
        if not self.proto:
            self.hello()
        if self.proto < 3:
            raise LinkError(_("the board's firmware is too old to report to a club: update it with `cribboard flash`"))
        self.ask(_line(CONF, kind, json.dumps(data)), (OK,))

    def set_time(self, unix: int) -> None:
        self.ask(_line(TIME, unix), (OK,))

    def state(self) -> dict[str, Any]:
        line = self.ask(STATE, (STATE,))[-1]
        try:
            state = json.loads(line[len(STATE) + 1 :])
        except ValueError:
            state = None
        if not isinstance(state, dict):
            raise LinkError(
                _("the board sent a state that is not a JSON object: %s") % ascii(line[len(STATE) + 1 :][:60])
            )
        return state

    def watch(self, on: bool = True) -> None:
        self.ask(_line(WATCH, ON if on else OFF), (OK,))

    def events(self) -> Iterator[dict[str, Any]]:
        """Live events until the board goes away."""
        while True:
            for reply in self.replies(time.monotonic() + 1.0):
                if reply.startswith(EV + " "):
                    try:
                        ev = json.loads(reply[len(EV) + 1 :])
                    except ValueError:
                        ev = None
                    if isinstance(ev, dict):
                        yield ev
                    else:
                        log.debug("an event that is not a JSON object: %s", ascii(reply[:200]))


def _line(*words: object) -> str:
    """A command's line: its word, then its arguments, a space between each."""
    return " ".join(str(w) for w in words)
