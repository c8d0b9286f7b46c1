# A board's whole life, generated (hypothesis): games confirmed, its flash
# wiped (a new log, numbered from 1 again, the board paired again), batches
# sent over USB and WiFi mixed, again and out of turn, cut short, a batch
# out of order, and a record sent again unlike the one stored. Whatever the
# order, once every log has been sent whole the games table holds exactly
# the games the board confirmed, each once, and every record that came
# again unlike the stored one is kept apart: none lost, none doubled. USB
# goes through intake.classify and the store as `cribboard sync` does; WiFi
# through the club's server (cribboard.club.protocol), signed as the board
# signs.
import json
import tempfile
from pathlib import Path

import clubserver
from clubserver import KEY
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_records import good

from cribboard import intake, store
from cribboard.club.protocol import Club, Report, board_headers
from cribboard.seating import Seating
from cribcore.clubwire import GAMES

BOARD = "b0ard"
steps = st.lists(
    st.one_of(
        st.tuples(st.just("play"), st.integers(min_value=1, max_value=3)),
        st.tuples(st.just("wipe")),
        st.tuples(  # a batch of one of its logs (0: the one it writes now), from some record on
            st.just("send"),
            st.sampled_from(["usb", "wifi"]),
            st.integers(min_value=0, max_value=2),
            st.integers(min_value=0, max_value=8),
            st.integers(min_value=1, max_value=4),
        ),
        st.tuples(st.just("shuffled"), st.sampled_from(["usb", "wifi"])),  # numbers no log has: refused whole
        st.tuples(st.just("unlike"), st.sampled_from(["usb", "wifi"]), st.integers(min_value=0, max_value=30)),
    ),
    max_size=30,
)


class Life:
    """The board (its logs, each [(seq, text)]), and both ways into one database."""

    def __init__(self, db_url):
        self.db_url = db_url
        clubserver.pair(db_url, BOARD)
        self.now = [1000.0]
        self.club = Club(db_url, Seating(), clock=lambda: self.now[0], now=lambda: 1_800_000_000.0)
        self.logs = []  # [(log id, [(seq, text)])], the one written now last
        self.games = 0  # confirmed so far (each a match of its own: no two alike)
        self.sent = set()  # (log, seq) the database has taken
        self.unlike = set()  # (log, seq, text): records sent again unlike the stored one
        self.boot = 1
        self.count = 0
        self.wipe()

    def wipe(self):
        self.logs.append(("%016x" % (len(self.logs) + 1), []))
        if len(self.logs) > 1:  # paired again: a new key, its count afresh
            self.boot, self.count = 1, 0
            conn = store.connect(self.db_url)
            try:
                store.club.pair(conn, BOARD, KEY.encode(), "2026-11-28T00:00:00+00:00")
            finally:
                conn.close()

    def play(self, n):
        records = self.logs[-1][1]
        for _ in range(n):
            self.games += 1
            records.append((len(records) + 1, json.dumps(good(self.games, loser=40 + self.games % 60))))

    def send(self, way, log, records):
        """Whether the batch was taken."""
        if way == "usb":
            conn = store.connect(self.db_url)
            try:
                batch = intake.classify(conn, BOARD, records, None, log)
                store.games.add(conn, BOARD, "t", batch.games, "now", {}, batch.apart, log)
            except intake.BadBatch:
                return False
            finally:
                conn.close()
        else:
            self.count += 1
            self.now[0] += 1.0  # (a board's pace: within its allowance)
            body = json.dumps({"fw": "t", "log": log, "boot": 1, "ticks": 9, "period": 1 << 30, "records": records})
            data = body.encode()
            counter = "%d.%d" % (self.boot, self.count)
            got = self.club.answer_games(
                Report(GAMES, board_headers(KEY.encode(), GAMES, BOARD, counter, data), data, "10.0.0.7")
            )
            status, answer = got.status, got.body
            assert status in (200, 422), answer
            if status == 422:
                return False
            assert json.loads(answer)["seq"] == records[-1][0]
        self.sent.update((log, seq) for seq, _text in records)
        return True

    def stored(self):
        conn = store.connect(self.db_url)
        try:
            games = {
                (r["log"], r["seq"]): json.loads(r["record"]) for r in conn.all("SELECT log, seq, record FROM games")
            }
            apart = {(r["log"], r["seq"], r["raw"]) for r in conn.all("SELECT log, seq, raw FROM rejected")}
            return games, apart
        finally:
            conn.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_every_game_a_board_confirms_is_stored_once_whatever_its_life(life_steps):
    with tempfile.TemporaryDirectory() as tmp:
        life = Life(str(Path(tmp) / "club.db"))
        try:
            for step in life_steps:
                if step[0] == "play":
                    life.play(step[1])
                elif step[0] == "wipe":
                    life.wipe()
                elif step[0] == "send":
                    _, way, back, start, size = step
                    log, records = life.logs[max(0, len(life.logs) - 1 - back)]
                    if records[start : start + size]:
                        assert life.send(way, log, records[start : start + size])
                elif step[0] == "shuffled":
                    log, records = life.logs[-1]
                    if len(records) >= 2:
                        assert not life.send(step[1], log, [records[1], records[0]])  # refused, nothing taken
                else:  # another record under a number the database holds: kept apart, the stored one kept
                    held = sorted(life.sent)
                    if held:
                        log, seq = held[step[2] % len(held)]
                        other = json.dumps(dict(good(10_000 + seq, loser=30), note="not as sent"))
                        assert life.send(step[1], log, [(seq, other)])
                        life.unlike.add((log, seq, other))
            for log, records in life.logs:  # at last every log is sent whole, three at a time
                for k in range(0, len(records), 3):
                    assert life.send("wifi" if k % 2 else "usb", log, records[k : k + 3])
            games, apart = life.stored()
            confirmed = {(log, seq): json.loads(text) for log, records in life.logs for seq, text in records}
            assert games == confirmed  # each game the board confirmed, once; nothing else
            assert apart == life.unlike  # each record unlike the stored one kept apart, once
        finally:
            life.club.close()
