# Sealed lines over a board's serial port (docs/protocol.md), with pyserial:
# any port name or URL pyserial knows, a pty of the simulated board included.
# The port is opened for this process alone; a command is sent and its
# replies collected, asked again when garbled or unanswered, and the answers
# a slow board still owes are read away before the next command. What the
# commands mean is cribboard.link.client's.
import errno
import json
import logging
import time
from collections.abc import Callable, Iterator

import serial

from cribboard.errors import CribboardError
from cribboard.link.identify import what_answers, who
from cribboard.text.error_words import core_from_data, said
from cribboard.text.i18n import _
from cribboard.waits import link_wait
from cribcore import CoreError
from cribcore.seal import seal, unseal
from cribcore.serialwire import CONF, CRC, ERC, ERR, EV, MAX_REPLY

log = logging.getLogger("link")  # cribboard --verbose shows every line each way
TRIES = 3
BUSY_S = 30.0  # a port another cribboard holds: how long to wait for it (a long sync takes seconds)
BUSY_POLL_S = 0.2
REPL_PROMPT = b">>> "


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


class SealedLines:
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
                got = self.serial.read(self.serial.in_waiting or 1)
            except (serial.SerialException, OSError) as e:
                raise LinkError(_("the board went away: %s") % e) from None
            if not got and self._buf == REPL_PROMPT:
                # MicroPython's prompt, waiting for input, ends no line: taken as one once the port is quiet
                # after it, so that a REPL is told at once, not after a whole try's wait. (No sealed line
                # starts so: each starts with its command's word.)
                self._buf = b""
                return REPL_PROMPT
            self._buf += got
            if len(self._buf) > MAX_REPLY and b"\n" not in self._buf:
                # Longer than any line a board sends: junk (its check fails), and what follows of it too,
                # so that a lying port cannot make this hold more than a line.
                line, self._buf = self._buf[:MAX_REPLY], self._buf[MAX_REPLY:]
                return line
        line, self._buf = self._buf.split(b"\n", 1)
        return line

    def send(self, text: str) -> None:
        # A CONF line carries the club's WiFi password or key: never in the log.
        log.debug("> %s", CONF + " (not shown)" if text.startswith(CONF + " ") else ascii(text)[1:-1])
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
                if reply.startswith(ERR + " " + CRC):
                    break  # our line was garbled on the way: send it again
                if reply.startswith(ERC + " "):
                    coded = core_error(reply[len(ERC) + 1 :])
                    continue
                if reply.startswith(ERR):
                    raise LinkError(_("the board said: %s") % (reply if coded is None else said(coded)))
                if reply.startswith(EV + " ") or reply == text:
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
            if reply.startswith(ERR) or reply.split(" ", 1)[0] in last:
                owed -= 1
                if not owed:
                    return

    def _say(self, text: str) -> None:
        if self.tell is not None:
            self.tell(text)

    def what_answers(self) -> str | None:
        return what_answers(self.heard)

    def who(self) -> str:
        return who(self.heard, self.port)
