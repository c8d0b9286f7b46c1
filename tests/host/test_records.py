# What the host accepts from a board (records.check), and what sync does with
# a board that lies: records kept apart with the reason and never lost, a
# listing out of order refused, a HELLO without an id refused.
import json

import pytest

from cribboard import records, store
from cribboard.link import sync
from cribboard.link.client import BoardLink
from cribboard.link.lines import LinkError
from cribcore.match import Match
from cribcore.partie import PiquetMatch
from cribcore.record import game_record


def good(seq=1, loser=80, names=None):
    m = Match()
    while m.game.score(1) < loser:
        m.game.add(1, min(29, loser - m.game.score(1)), "pegging", 10)
    while not m.game.over():
        m.game.add(0, 29, "pegging", 20)
    rec = game_record(m, 0)
    rec.update({"match": seq, "game_no": 1, "board": "b0ard", "boot": 1, "ticks": 40, "wall": None, "firmware": "t"})
    if names:
        rec["names"] = names
    return json.loads(json.dumps(rec))


LIES = [
    ("[1, 2, 3]", "not a JSON object"),
    ('{"match": 1', "not JSON"),
    (dict(good(), match=10**30), "match is"),
    (dict(good(), game_no="1"), "game_no is"),
    (dict(good(), ticks=-1), "ticks is"),
    (dict(good(), wall=[1, "x"]), "wall is"),
    ({k: v for k, v in good().items() if k != "events"}, "does not replay: record has no 'events'"),
    (dict(good(), events=[[0, 5]]), "bad event"),
    (dict(good(), events=[[0, 5, "pegging", 2**70]]), "ticks"),
    (dict(good(), events=[[7, 5, "pegging", 1]]), "no seat 7"),
    (dict(good(), scores=[-50, 99999], winner=5, skunk=9, target=7), "does not replay"),
    (dict(good(), scores=[121, 0]), "scores [121, 0], but its events make [121, 80]"),
    (dict(good(), winner=1), "does not match its events"),
    (dict(good(), match_result=[5]), "match_result is"),
    (dict(good(), match_result={"winner": 5}), "match_result is"),
    (dict(good(), names=["Ann"]), "names: 2 names are needed"),
    (dict(good(), names=["Ann", "\x1b]0;owned\x07"]), "names: name 2: no control characters"),
    (dict(good(), game="whist"), "cribbage or piquet"),
    (dict(good(), v=2), "record version"),
    ({"too_long": 20014}, "the board could not send it: 20014 bytes"),
]


@pytest.mark.parametrize("rec,why", LIES, ids=[why for _, why in LIES])
def test_a_record_that_is_no_game_says_why(rec, why):
    body = rec if isinstance(rec, str) else json.dumps(rec)
    with pytest.raises(records.BadRecord) as e:
        records.check(body)
    assert why in str(e.value)


def test_a_good_record_gives_its_game_names_and_kind():
    g = records.check(json.dumps(good(names=["Ann", "José"])))
    assert (g.kind, g.names, g.scores) == ("cribbage", ["Ann", "José"], [121, 80])
    assert records.check(json.dumps(good())).names == ["Track 1", "Track 2"]  # a board never given names
    m = PiquetMatch(dealer=0)
    m.game.add(0, 130, "points", 10)
    for _ in range(6):
        m.game.pass_deal(30)
    rec = dict(game_record(m, 0), match=1, game_no=1, boot=1, ticks=9, wall=None)
    assert records.check(json.dumps(rec)).kind == "piquet"


class LyingLink:
    """The host's view of a board (the link's interface), telling lies."""

    def __init__(self, bodies, board="b0ard", seq=None, log=None, acked=None):
        self.bodies = bodies  # [(seq, JSON text)]
        self.board = board
        self.acked = []
        self.seq = seq if seq is not None else (bodies[-1][0] if bodies else 0)
        self.log = log
        self.acked_before = acked

    def hello(self):
        hello = {"proto": 1, "board": self.board, "seq": self.seq, "boot": 1, "ticks": 0}
        if self.acked_before is not None:
            hello["acked"] = self.acked_before
        return hello if self.log is None else dict(hello, log=self.log)

    def set_time(self, unix):
        pass

    def records(self, since, limit=50):
        out = [(s, b) for s, b in self.bodies if s > since][:limit]
        return out, self.bodies[-1][0] if self.bodies else 0

    def ack(self, seq):
        self.acked.append(seq)

    def crashes(self):
        return []


def test_sync_keeps_lies_apart_stores_the_games_and_loses_nothing(db_url):
    bodies = [
        (1, json.dumps(good(1))),
        (2, "[1, 2]"),
        (3, json.dumps(dict(good(3), scores=[-50, 99999]))),
        (4, json.dumps(good(4, names=["Ann", "Bob"]))),
    ]
    conn = store.connect(db_url)
    link = LyingLink(bodies)
    assert sync.sync(link, conn) == (2, 2, "b0ard", 0)
    assert link.acked == [4]  # the board may forget them: they are kept here
    kept = store.reports.rejected(conn)
    assert [(r["seq"], r["raw"]) for r in kept] == [(2, "[1, 2]"), (3, bodies[2][1])]
    assert "not a JSON object" in kept[0]["reason"]
    assert "scores" in kept[1]["reason"]
    assert [r["seq"] for r in conn.all("SELECT seq FROM games ORDER BY seq")] == [1, 4]
    again = LyingLink(bodies)
    assert sync.sync(again, conn) == (0, 0, "b0ard", 0)  # asked from after the last record, kept apart or not
    assert len(store.reports.rejected(conn)) == 2


def test_the_same_game_under_a_new_number_is_kept_apart_once_synced_or_in_one_batch(db_url):
    # A board that logged one game twice (a power cut between its log and its state), or a lie.
    conn = store.connect(db_url)
    link = LyingLink([(1, json.dumps(good(1))), (2, json.dumps(good(2)))])
    assert sync.sync(link, conn).new == 2
    twice = json.dumps(good(1))  # record 1's game again, as records 3 and 5
    link = LyingLink(link.bodies + [(3, twice), (4, json.dumps(good(4))), (5, twice)])
    assert sync.sync(link, conn) == (1, 2, "b0ard", 0)
    assert [(r["seq"], r["reason"]) for r in store.reports.rejected(conn)] == [
        (3, "the same game as record 1"),
        (5, "the same game as record 1"),
    ]
    game = json.dumps(good(7))  # within one batch too
    assert sync.sync(LyingLink([(1, game), (2, game)], board="b0ard2"), conn) == (1, 1, "b0ard2", 0)


def test_a_hello_without_a_usable_id_or_count_is_refused(db_url):
    conn = store.connect(db_url)
    for board, seq, why in (
        ("", 0, "board id"),
        ("\x1b]0;x\x07", 0, "board id"),
        (None, 0, "board id"),
        ("b0ard", "abc", "record count"),
    ):
        link = LyingLink([], board=board, seq=seq)
        with pytest.raises(LinkError, match=why):
            sync.sync(link, conn)
    assert conn.value("SELECT COUNT(*) FROM boards") == 0


def test_a_listing_out_of_order_or_with_a_bad_number_is_refused():
    link = BoardLink.__new__(BoardLink)  # the parsing only: no port
    for lines, why in (
        (["REC 3 {}", "REC 2 {}", "END 2 3"], "not keeping its log in order"),
        (["REC 1 {}", "END 1 3"], "not keeping its log in order"),  # at or before SINCE 1
        (["REC 2 {}", "END 1 1"], "not keeping its log in order"),  # past its own last
        (["REC abc {}", "END 1 3"], "a record numbered 'abc'"),
        (["REC %d {}" % 2**70, "END 1 3"], "not a sequence number"),
        (["REC %d {}" % 2**31, "END 1 %d" % 2**31], "not a sequence number"),  # past an INTEGER
        (["END x"], "ended a listing"),
    ):
        link.ask = lambda text, last, lines=lines: lines
        with pytest.raises(LinkError, match=why):
            link.records(1)


def test_a_board_whose_numbers_went_back_without_a_log_id_has_its_new_records_kept_apart_never_dropped(db_url):
    conn = store.connect(db_url)
    bodies = [(1, json.dumps(good(1))), (2, json.dumps(good(2)))]
    assert sync.sync(LyingLink(bodies), conn).new == 2
    # Numbering again from 1, no log id; the board's sent-cursor says none of them was taken.
    cleared = LyingLink([(1, json.dumps(good(7))), (2, json.dumps(good(2)))], acked=0)
    assert sync.sync(cleared, conn) == (0, 1, "b0ard", 0)  # record 2 is the one stored: sent again
    assert cleared.acked == [2]
    assert conn.value("SELECT COUNT(*) FROM games") == 2
    shorter = LyingLink([(1, json.dumps(good(7)))])  # and a log that ends before the stored one: read again too
    assert sync.sync(shorter, conn) == (0, 0, "b0ard", 0)
    assert shorter.acked == [1]
    (kept,) = store.reports.rejected(conn)
    assert (kept["seq"], kept["raw"]) == (1, cleared.bodies[0][1])
    assert kept["reason"].startswith("record 1 again, but not as this database holds it")
    assert sync.sync(cleared, conn) == (0, 0, "b0ard", 0)  # asked again: nothing twice
    assert len(store.reports.rejected(conn)) == 1


def test_a_board_whose_log_was_made_anew_syncs_its_new_games_beside_the_old(db_url):
    conn = store.connect(db_url)
    old = LyingLink([(1, json.dumps(good(1))), (2, json.dumps(good(2)))], log="0123456789abcdef")
    assert sync.sync(old, conn).new == 2
    new = LyingLink([(1, json.dumps(good(7)))], log="fedcba9876543210")  # wiped: a new log, from 1 again
    assert sync.sync(new, conn) == (1, 0, "b0ard", 0)
    assert new.acked == [1]
    assert sync.sync(old, conn).new == 0
    assert sync.sync(new, conn).new == 0
    rows = conn.all("SELECT log, seq FROM games ORDER BY id")
    assert [(r["log"], r["seq"]) for r in rows] == [
        ("0123456789abcdef", 1),
        ("0123456789abcdef", 2),
        ("fedcba9876543210", 1),
    ]
    with pytest.raises(LinkError, match="no usable log id"):
        sync.sync(LyingLink([(1, json.dumps(good(8)))], log="../etc"), conn)


def test_a_record_with_text_no_database_keeps_is_kept_apart_escaped(db_url):
    # A NUL, which PostgreSQL's text refuses, and a lone surrogate, which is no UTF-8: kept apart all the same.
    conn = store.connect(db_url)
    link = LyingLink([(1, '{"a\x00": 1}'), (2, "\ud800"), (3, json.dumps(good(3)))])
    assert sync.sync(link, conn) == (1, 2, "b0ard", 0)
    assert [r["raw"] for r in store.reports.rejected(conn)] == ['{"a\\x00": 1}', "\\ud800"]
