# A board that lies, on a real pseudo-terminal, against the real command:
# every line it sends is sealed (its CRC is right), and still the host must
# check everything it says: a HELLO without a usable id or count, records
# that are no games, numbers that do not move forward or go back, text that
# would drive the terminal. Each case ends in one clear line (or the games
# stored and the lies kept apart), never a traceback or a loop.
import json
import os
import threading
import tty

import pytest
from clirun import cli, one_line_error
from deadline import COMMAND_S

from cribcore.match import Match
from cribcore.record import game_record
from cribcore.seal import seal, unseal

ESC = "\x1b]0;owned\x07\x1b[31m"


def record(seq, loser=80, **changes):
    m = Match()
    while m.game.score(1) < loser:
        m.game.add(1, min(29, loser - m.game.score(1)), "pegging", 10)
    while not m.game.over():
        m.game.add(0, 29, "pegging", 20)
    rec = dict(game_record(m, 0), match=seq, game_no=1, board="liar", boot=1, ticks=40, wall=None, firmware="t")
    rec.update(changes)
    return json.dumps(rec)


class LyingBoard:
    """A board on a pty that answers from a script: hello (the HELLO line's
    fields), listing(since) -> (REC lines, END line), crashes."""

    def __init__(self, hello, listing=None, crashes=()):
        self.hello = hello
        self.listing = listing or (lambda since: ([], "END 0 0"))
        self.crashes = crashes
        self.asked = []
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def send(self, text):
        os.write(self.master, seal(text))

    def serve(self):
        buf = b""
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            if not data:
                return
            if b"\x03" in data or b"\x04" in data:  # Ctrl-C, Ctrl-D: a board's program stops; what came before is gone
                buf, data = b"", data[max(data.rfind(b"\x03"), data.rfind(b"\x04")) + 1 :]
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                text = unseal(line)
                if text is None:
                    continue
                self.asked.append(text)
                word = text.split()[0]
                if word == "HELLO":
                    self.send("HELLO " + " ".join("%s=%s" % kv for kv in self.hello.items()))
                elif word == "LIST":
                    recs, end = self.listing(int(text.split()[1]))
                    for r in recs:
                        self.send(r)
                    self.send(end)
                elif word == "ACK":
                    self.send("OK ACK %s" % text.split()[1])
                elif word == "CRASHES" and len(text.split()) == 1:
                    for boot, uptime, trace in self.crashes:
                        self.send("CRASH %d %d %s" % (boot, uptime, json.dumps(trace)))
                    self.send("END %d" % len(self.crashes))
                else:
                    self.send("OK " + text)

    def close(self):
        os.close(self.slave)
        os.close(self.master)


HELLO = {"board": "liar0001", "fw": "0.1.0", "proto": 2, "boot": 1, "ticks": 5, "period": 1 << 30, "seq": 3, "acked": 0}


@pytest.fixture
def liar():
    made = []

    def make(*args, **kw):
        made.append(LyingBoard(*args, **kw))
        return made[-1]

    yield make
    for b in made:
        b.close()


def sync(board, tmp_path):
    return cli("sync", "--port", board.port, "--db", str(tmp_path / "games.db"), "--json", timeout=COMMAND_S)


@pytest.mark.parametrize(
    "changes,why",
    [
        ({"seq": "abc"}, "no record count"),
        ({"board": ""}, "no usable board id"),
        ({"board": "liar\x1b]0;owned"}, "no usable board id"),
        ({"proto": 99}, "protocol 99"),
    ],
)
def test_a_hello_that_lies_is_one_line(liar, tmp_path, changes, why):
    board = liar(dict(HELLO, **changes))
    line = one_line_error(sync(board, tmp_path))
    assert why in line
    assert "\x1b" not in line


def test_records_that_are_no_games_are_kept_apart_and_reported_and_the_games_stored(liar, tmp_path):
    recs = {
        1: record(1),
        2: "[1, 2, 3]",
        3: record(3, match=10**30),
        4: record(4, events=[[0, 5]]),
        5: record(5, scores=[-50, 99999], winner=5, skunk=9, target=7),
        6: '{"names": ["%s"]}' % ESC,
        7: record(7),
    }  # 6: control characters raw in a JSON string

    def listing(since):
        out = ["REC %d %s" % (s, b) for s, b in sorted(recs.items()) if s > since]
        return out, "END %d 7" % len(out)

    board = liar(dict(HELLO, seq=7), listing)
    done = sync(board, tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["new_games"] == 2
    assert json.loads(done.stdout)["rejected"] == 5
    kept = cli("rejected", "--db", str(tmp_path / "games.db"))
    assert kept.returncode == 0
    assert "\x1b" not in kept.stdout
    assert "\\x1b" in kept.stdout
    for what in ("matches", "stats", "export"):
        assert cli(what, "--db", str(tmp_path / "games.db")).returncode == 0, what  # only games were stored
    assert "ACK 7" in board.asked


@pytest.mark.parametrize(
    "listing,why",
    [
        (lambda since: (["REC 1 {}", "REC 2 {}"], "END 2 3"), "not keeping its log in order"),  # ignores SINCE
        (lambda since: (["REC 3 {}", "REC 2 {}"], "END 2 3"), "not keeping its log in order"),  # goes backwards
        (lambda since: (["REC %d {}" % 2**70], "END 1 3"), "not a sequence number"),
    ],
)
def test_numbers_that_do_not_move_forward_end_the_sync_at_once(liar, tmp_path, listing, why):
    board = liar(dict(HELLO, seq=3), listing)
    line = one_line_error(sync(board, tmp_path))
    assert why in line
    assert len([a for a in board.asked if a.startswith("LIST")]) <= 2  # one retry at most, never a loop


def test_a_board_whose_numbers_went_back_has_its_new_record_kept_apart_and_said(liar, tmp_path):
    recs = ["REC 1 %s" % record(1), "REC 2 %s" % record(2)]
    board = liar(
        dict(HELLO, seq=2),
        lambda since: (
            [r for r in recs if int(r.split()[1]) > since],
            "END %d 2" % len([r for r in recs if int(r.split()[1]) > since]),
        ),
    )
    assert sync(board, tmp_path).returncode == 0
    # Its log cleared by firmware that gives a log no id: record 1 is not the one stored, so it is kept apart
    # with the reason (never dropped, never taken for the stored game), and the board told it is kept.
    cleared = liar(
        dict(HELLO, seq=1), lambda since: (["REC 1 %s" % record(9)], "END 1 1") if since < 1 else ([], "END 0 1")
    )
    done = sync(cleared, tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["new_games"] == 0
    assert json.loads(done.stdout)["rejected"] == 1
    kept = json.loads(cli("rejected", "--db", str(tmp_path / "games.db"), "--json").stdout)
    assert [(r["seq"], r["reason"][:36]) for r in kept] == [(1, "record 1 again, but not as this data")]
    assert "ACK 1" in cleared.asked


def test_crash_text_from_a_board_is_shown_not_obeyed(liar, tmp_path):
    board = liar(HELLO, crashes=[(1, 500, "Traceback\n%sValueError: boom\n" % ESC)])
    assert sync(board, tmp_path).returncode == 0
    shown = cli("crashes", "--db", str(tmp_path / "games.db"))
    assert shown.returncode == 0
    assert "boom" in shown.stdout
    assert "\x1b" not in shown.stdout
