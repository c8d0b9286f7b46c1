# A board too slow to answer a command within the link's timeout answers it
# later, once for each time it was sent: the late answers of one command are
# never taken for the next command's (seen under load: a sync whose LIST was
# asked twice read the second `END 0 0` as the answer to CRASHES).
import pytest

from cribboard.link.client import BoardLink
from cribboard.link.lines import LinkError
from cribcore.seal import seal, unseal


class Port:
    """A serial port whose board's answers are in out, read as written."""

    in_waiting = 0

    def __init__(self):
        self.out = b""

    def flush(self):
        pass

    def read(self, n):
        data, self.out = self.out[:n], self.out[n:]
        return data


class SlowBoard(Port):
    """A serial port to a board that answers a LIST only once it was sent
    twice, and then both; CRASHES at once."""

    def __init__(self):
        super().__init__()
        self.lists = 0

    def write(self, data):
        text = unseal(data.rstrip(b"\n"))
        if text is not None and text.startswith("LIST"):
            self.lists += 1
            if self.lists == 2:
                self.out += seal("END 0 0") * 2
        elif text == "CRASHES":
            self.out += seal("END 0")


def test_the_late_answers_of_a_command_asked_again_are_not_the_next_commands():
    link = BoardLink.__new__(BoardLink)
    link.serial, link.port, link.timeout, link.tell = SlowBoard(), "slow", 0.2, None
    link.junk, link.heard, link.proto, link._buf, link._late = 0, [], 2, b"", (0, ())
    assert link.records(0) == ([], 0)  # answered at the second try, twice
    assert link.crashes() == []  # its own END, not the LIST's second one
    assert link.serial.lists == 2


def test_the_wait_for_an_answer_is_the_users_to_set_and_a_bad_setting_is_a_usage_error(monkeypatch):
    from cribboard.errors import UsageError
    from cribboard.waits import LINK_WAIT_S, link_wait

    for text, wait in (("40", 40.0), ("0.5", 0.5), (" 2 ", 2.0), ("", LINK_WAIT_S), ("3600", 3600.0)):
        monkeypatch.setenv("CRIBBOARD_LINK_WAIT", text)
        assert link_wait() == wait, text
    for text in ("abc", "-1", "0", "nan", "inf", "1e9", "3600.5", "\udcff"):
        monkeypatch.setenv("CRIBBOARD_LINK_WAIT", text)
        with pytest.raises(UsageError, match="CRIBBOARD_LINK_WAIT wants seconds"):
            link_wait()


class Repl(Port):
    """A serial port to a board with only MicroPython on it: what it is sent goes unanswered but for its
    error and its prompt, which ends no line; after that it is quiet. A read of the quiet port past the
    first few means the link is still waiting for a line that will never end."""

    def __init__(self):
        super().__init__()
        self.quiet_reads = 0

    def write(self, data):
        self.out += b"Traceback (most recent call last):\r\nNameError: name 'HELLO' isn't defined\r\n>>> "

    def read(self, n):
        data = super().read(n)
        if not data:
            self.quiet_reads += 1
            assert self.quiet_reads < 20, "the link waits on after MicroPython's prompt"
        return data


def test_micropythons_prompt_is_heard_as_soon_as_the_port_is_quiet_after_it():
    link = BoardLink.__new__(BoardLink)
    link.serial, link.port, link.timeout, link.tell = Repl(), "repl", 3600.0, None
    link.junk, link.heard, link.proto, link._buf, link._late = 0, [], 2, b"", (0, ())
    with pytest.raises(LinkError, match="answers as MicroPython's REPL"):
        link.ask("HELLO", ("HELLO",), lambda: link.what_answers() is not None)
    assert link.what_answers() == "repl"
    assert link.heard[-1] == ">>>"


class Flood(Port):
    """A serial port that, asked CRASHES, sends a megabyte with no newline, then the answer: a lying port
    (or a board's stray output) must not make the host hold more than one line's worth of it."""

    def write(self, data):
        if unseal(data.rstrip(b"\n")) == "CRASHES":
            self.out += b"x" * (1 << 20) + b"\n" + seal("END 0")

    def read(self, n):
        return super().read(max(n, 4096))  # as a USB port gives what has come, not a byte a read


def test_a_line_longer_than_any_board_sends_is_junk_and_never_held_whole():
    from cribcore.serialwire import MAX_REPLY

    link = BoardLink.__new__(BoardLink)
    link.serial, link.port, link.timeout, link.tell = Flood(), "flood", 5.0, None
    link.junk, link.heard, link.proto, link._buf, link._late = 0, [], 5, b"", (0, ())
    held = []
    readline = link._readline

    def watched(deadline):
        line = readline(deadline)
        held.append(len(link._buf) + len(line or b""))
        return line

    link._readline = watched
    assert link.crashes() == []  # the answer after the flood is read
    assert max(held) <= MAX_REPLY + 4096  # at most a line and one read's worth
    assert link.junk >= (1 << 20) // MAX_REPLY  # every piece of it counted as junk
