# What the club's server takes from a board, by the same rules as a USB
# sync (cribboard.intake), on SQLite and PostgreSQL; a refused record kept
# apart while the rest of its batch is stored; a replay that costs the real
# board nothing; refusals from one address slowed, and their log lines
# limited. The protocol alone (cribboard.club.protocol, no HTTP), with a
# fake clock; test_club.py and test_club_service.py go through the server.
import json
import logging

import clubserver
import pytest
from clubserver import KEY
from test_records import good

from cribboard import store
from cribboard.club import protocol
from cribboard.club.protocol import board_headers
from cribboard.seating import Seating
from cribcore.clubwire import GAMES, LIVE

BOARD = "b0ard"


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def club(db_url):
    clubserver.pair(db_url, BOARD)
    clock = Clock()
    club = protocol.Club(db_url, Seating(), clock=clock, now=lambda: 1_800_000_000.0)
    club.clock = clock
    club.db_url = db_url
    counter = [0]

    def post(body, path=GAMES, count=None, peer="10.0.0.7", key=KEY, raw=None):
        """(status, answer) of a request signed as the board signs it, with its next counter."""
        if count is None:
            counter[0] += 1
            count = "1.%d" % counter[0]
        data = raw if raw is not None else json.dumps(body).encode()
        headers = board_headers(key.encode(), path, BOARD, count, data)
        take = club.answer_games if path == GAMES else club.answer_live
        got = take(protocol.Report(path, headers, data, peer))
        status, answer = got.status, got.body
        return status, json.loads(answer)

    club.post = post
    yield club
    club.close()


def batch(*seqs, **fields):
    return dict(
        {
            "fw": "1.0",
            "boot": 3,
            "ticks": 5000,
            "period": 1 << 30,
            "records": [[seq, json.dumps(good(seq, loser=80 + seq))] for seq in seqs],
        },
        **fields,
    )


def stored(club):
    db = store.connect(club.db_url)
    try:
        games = [(r["seq"], r["ended_at"]) for r in db.all("SELECT seq, ended_at FROM games ORDER BY seq")]
        apart = [(r["seq"], r["reason"]) for r in store.reports.rejected(db)]
        return games, apart, store.club.last_counter(db, BOARD)
    finally:
        db.close()


@pytest.mark.parametrize(
    "records, why",
    [
        ([[0, "x"]], "record number 0 after none"),
        ([[-7, "x"]], "record number -7 after none"),
        ([[2**63, "x"]], "record number 9223372036854775808 after none"),
        ([[2**31, "x"]], "record number 2147483648 after none"),
        ([[3, "x"], [2, "x"]], "record number 2 after 3"),
        ([[2, "x"], [2, "x"]], "record number 2 after 2"),
        ([["1", "x"]], 'record number "1" after none'),
    ],
)
def test_numbers_no_boards_log_has_refuse_the_batch_and_change_nothing(club, records, why):
    assert club.post({"records": records}) == (422, {"error": why})
    assert stored(club) == ([], [], (0, 0))  # not even the counter


def test_a_counter_no_board_can_count_to_is_refused_and_moves_nothing(club):
    # A board's BOOT and N are small ints (cribcore.clubwire.COUNT_MAX): a leaked key's 2147483647.2147483647
    # would leave the board no counter after it. Refused, the stored one unmoved.
    for count in ("2147483647.2147483647", "1073741824.1", "1.1073741824", "99999999999.1", "1.-1", "1e3.1", "١.١"):
        assert club.post(batch(1), count=count)[0] == 400
    assert stored(club) == ([], [], (0, 0))
    assert club.post(batch(1), count="1073741823.1073741823")[0] == 200  # the largest a board counts to
    assert stored(club)[2] == (2**30 - 1, 2**30 - 1)


def test_numbers_that_make_no_date_store_the_game_without_one(club):
    assert club.post(batch(1, ticks=2**4000, period=2**4000))[0] == 200
    assert club.post(batch(2, boot=2**4000, ticks=-5))[0] == 200
    wall = dict(good(3, loser=83), boot=1, wall=[2**40, 5])  # a date in the year 36812
    assert club.post(dict(batch(), records=[[3, json.dumps(wall)]]))[0] == 200
    this_boot = dict(good(4, loser=84), boot=3, ticks=0)  # this boot, 5 s before the report: dated
    assert club.post(dict(batch(), records=[[4, json.dumps(this_boot)]]))[0] == 200
    games, _apart, _counter = stored(club)
    assert games == [(1, None), (2, None), (3, None), (4, 1_800_000_000.0 - 5.0)]


def test_a_bad_record_is_kept_apart_the_rest_stored_and_the_board_told_to_move_on(club):
    body = batch(1, 2, 3)
    body["records"][1][1] = json.dumps(dict(good(2), scores=[121, 0]))  # its events make [121, 80]
    status, answer = club.post(body)
    assert status == 200
    assert answer["seq"] == 3
    assert answer["apart"] == [2]
    games, apart, _counter = stored(club)
    assert [g[0] for g in games] == [1, 3]
    assert [a[0] for a in apart] == [2]
    assert "scores" in apart[0][1]


def test_a_resend_and_the_same_game_again_store_nothing_twice_and_the_answer_is_what_was_sent(club):
    assert club.post(batch(1, 2))[1]["seq"] == 2
    assert club.post(batch(1, 2))[1] == {"board": BOARD, "counter": "1.2", "seq": 2, "apart": []}  # a lost answer
    again = json.dumps(good(1, loser=81))  # game 1, logged again as record 5 (a gap: records 3 and 4 were torn)
    status, answer = club.post(dict(batch(), records=[[5, again]]))
    assert status == 200
    assert answer["seq"] == 5
    assert answer["apart"] == [5]
    games, apart, _counter = stored(club)
    assert [g[0] for g in games] == [1, 2]
    assert apart == [(5, "the same game as record 1")]
    assert club.post(batch(6), count="1.1")[0] == 409  # a counter already used: nothing


def test_a_board_whose_log_was_made_anew_has_its_games_stored_and_its_old_logs_resends_skipped(club):
    old, new = "0123456789abcdef", "fedcba9876543210"
    assert club.post(batch(1, 2, log=old))[1]["apart"] == []
    status, answer = club.post(dict(batch(log=new), records=[[1, json.dumps(good(9, loser=70))]]))  # wiped
    assert (status, answer["seq"], answer["apart"]) == (200, 1, [])
    assert club.post(batch(1, 2, log=old))[1]["apart"] == []  # the old log's records sent again: skipped
    db = store.connect(club.db_url)
    try:
        rows = [(r["log"], r["seq"]) for r in db.all("SELECT log, seq FROM games ORDER BY id")]
    finally:
        db.close()
    assert rows == [(old, 1), (old, 2), (new, 1)]
    assert club.post(batch(3, log="NOT-A-LOG-ID"))[0] == 400
    assert len(stored(club)[0]) == 3


def test_a_record_sent_again_unlike_the_stored_one_is_kept_apart_and_said_never_dropped(club):
    assert club.post(batch(1, 2))[0] == 200
    other = json.dumps(good(9, loser=70))  # a board whose firmware gives no log id, its log made anew
    status, answer = club.post(dict(batch(), records=[[1, other], [2, json.dumps(good(2, loser=82))]]))
    assert (status, answer["seq"], answer["apart"]) == (200, 2, [1])  # 2 is the stored one: sent again
    games, apart, _counter = stored(club)
    assert [g[0] for g in games] == [1, 2]
    assert [a[0] for a in apart] == [1]
    assert apart[0][1].startswith("record 1 again, but not as this database holds it")
    assert club.post(dict(batch(), records=[[1, other]]))[1]["apart"] == []  # the kept one again: kept once
    assert len(stored(club)[1]) == 1


def test_a_record_under_a_number_below_the_last_stored_is_a_new_game_when_nothing_is_stored_there(club):
    top = dict(batch(), records=[[2**31 - 1, json.dumps(good(1, loser=81))]])
    assert club.post(top)[1]["apart"] == []
    status, answer = club.post(dict(batch(), records=[[235, json.dumps(good(2, loser=82))]]))
    assert (status, answer) == (200, dict(answer, seq=235, apart=[]))
    assert [g[0] for g in stored(club)[0]] == [235, 2**31 - 1]  # stored, not taken for a resend


def test_a_record_nested_past_any_games_is_kept_apart_and_the_next_one_stored(club):
    deep = "[" * 1000 + "]" * 1000
    status, answer = club.post(dict(batch(), records=[[1, deep], [2, json.dumps(good(2, loser=82))]]))
    assert (status, answer["seq"], answer["apart"]) == (200, 2, [1])
    games, apart, _counter = stored(club)
    assert [g[0] for g in games] == [2]
    assert apart == [(1, "nests deeper than 16")]


def test_a_replay_costs_the_real_board_nothing_and_a_flood_from_one_address_is_slowed(club):
    assert club.post(batch(1), count="1.1")[0] == 200
    replies = [club.post(batch(1), count="1.1", peer="10.6.6.6")[0] for _ in range(protocol.REFUSED_BURST + 20)]
    assert replies == [409] * protocol.REFUSED_BURST + [429] * 20  # then refused before the database is asked
    statuses = [club.post(batch(n), count="1.%d" % n)[0] for n in range(2, protocol.BURST + 1)]
    assert statuses == [200] * (protocol.BURST - 1)  # the rest of the board's allowance is still its own
    unsigned = club.post(batch(1), count="1.99", peer="10.6.6.7", key="00" * 16)
    assert unsigned[0] == 403
    club.clock.now += 3600  # an hour on, the address may try again
    assert club.post(batch(1), count="1.1", peer="10.6.6.6")[0] == 409


def test_a_board_behind_an_address_a_stranger_floods_is_still_answered_and_never_charged(club):
    nat = "10.0.0.1"  # the boards and a phone behind one NAT, or one balancer: one address for all
    club.follow()  # (a server knows its paired boards' keys from the start)
    for _ in range(protocol.REFUSED_BURST + 10):  # the phone: keyless requests, refused
        assert club.post(batch(1), peer=nat, key="00" * 16)[0] in (403, 429)
    assert club.post(batch(1), peer=nat, key="00" * 16)[0] == 429  # its address has used its refusals...
    statuses = [club.post(batch(n), peer=nat)[0] for n in range(1, 9)]
    assert statuses == [200] * 8  # ...but each of the board's new requests, signed, is answered
    assert club.post(dict(batch(), records=[[1, "x"], [0, "y"]]), peer=nat)[0] == 422  # its own mistake too
    assert club.post(batch(9), count="1.1", peer=nat)[0] == 429  # a replay is no board's new request: refused
    assert len(stored(club)[0]) == 8
    alone = "10.0.0.2"  # a board's own refusals, signed (a body it got wrong), cost its address nothing:
    for _ in range(protocol.REFUSED_BURST + 10):
        club.clock.now += 1 / protocol.RATE  # (within the board's own allowance)
        assert club.post({"records": "none"}, peer=alone)[0] == 400
    assert club.post(batch(1), peer=alone, key="00" * 16)[0] == 403  # a stranger there is still heard


def test_a_flood_of_health_checks_from_one_address_is_refused_before_it_asks_the_database(club):
    asked = []
    real = club.pool.healthy
    club.pool.healthy = lambda: asked.append(1) or real()
    answers = [club.healthy("10.6.6.6") for _ in range(protocol.HEALTH_BURST + 5)]
    assert answers == [True] * protocol.HEALTH_BURST + [None] * 5
    assert len(asked) == protocol.HEALTH_BURST
    assert club.healthy("10.0.0.9") is True  # a monitor elsewhere is not refused for it
    club.clock.now += 1 / protocol.HEALTH_RATE
    assert club.healthy("10.6.6.6") is True
    assert club.healthy("10.6.6.6") is None


def test_refusals_are_a_line_each_up_to_a_limit_then_one_summary(club, caplog):
    caplog.set_level(logging.INFO, logger="club")
    for _ in range(30):
        club.clock.now += 1  # slow enough for the address's allowance, too fast for the log
        assert club.post(batch(1), key="00" * 16, peer="10.6.6.6")[0] == 403
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == protocol.LOG_LINES
    assert all("bad signature" in line for line in lines)
    club.clock.now += 60
    assert club.post(batch(1), key="00" * 16, peer="10.6.6.6")[0] == 403
    lines = [r.getMessage() for r in caplog.records][protocol.LOG_LINES :]
    assert lines[0] == "dropped %d more log lines about 10.6.6.6 in the last minute" % (30 - protocol.LOG_LINES)
    assert "bad signature" in lines[1]
    assert len(lines) == 2


def test_a_live_state_that_is_no_boards_is_refused_in_one_line(club, caplog):
    caplog.set_level(logging.INFO, logger="club")
    for state in ({}, {"match": 2**4000}, {"match": {"game": [[]] * 5}}, [1]):
        status, answer = club.post({"state": state}, path=LIVE)
        assert status in (400, 422)
        assert "error" in answer
    assert len(caplog.records) == 4
    assert all("\n" not in r.getMessage() for r in caplog.records)


def test_text_no_database_keeps_is_kept_apart_escaped_or_refused_never_a_503(club):
    # A NUL (PostgreSQL's text refuses it) or a lone surrogate (no UTF-8) from a board's report.
    nameless = dict(good(2, loser=82), names=["\ud800Ann", "Bob"])
    body = dict(
        batch(1),
        fw="1.0\x00\ud800",
        records=[[1, '{"a\x00": 1}'], [2, json.dumps(nameless)], [3, "\ud800"], [4, json.dumps(good(4, loser=84))]],
    )
    status, answer = club.post(body)
    assert status == 200
    assert answer["apart"] == [1, 2, 3]
    games, apart, _counter = stored(club)
    assert [g[0] for g in games] == [4]
    assert [seq for seq, _why in apart] == [1, 2, 3]
    assert "names: " in apart[1][1]
    assert "a name is text" in apart[1][1]
    db = store.connect(club.db_url)
    raws = [r["raw"] for r in store.reports.rejected(db)]
    firmware = db.value("SELECT firmware FROM boards WHERE board = ?", (BOARD,))
    db.close()
    assert raws[0] == '{"a\\x00": 1}'
    assert raws[2] == "\\ud800"
    assert firmware == "1.0\\x00\\ud800"


def a_live_state():
    from rig import Table

    t = Table()
    t.enter(0, 7)
    return json.loads(json.dumps(t.state()))


def test_a_known_boards_live_report_in_one_statement_still_meets_every_check_the_database_holds(club):
    """The live report of a board whose key the server keeps is taken in one statement (_live_known);
    what changed in the database since (another server took the counter, the key rotated, the board
    revoked) is still said as the full way says it, and nothing is kept."""
    state = {"state": a_live_state()}
    db = store.connect(club.db_url)
    try:
        assert club.post(state, path=LIVE, count="1.1") == (200, {"board": BOARD, "counter": "1.1"})
        assert club.post(state, path=LIVE, count="1.1") == (
            409,
            {"error": "a replay, or a request out of order", "last": "1.1"},
        )
        store.club.take_live(db, BOARD, 1, 5, "now", "{}")  # another server took 1.5
        assert club.post(state, path=LIVE, count="1.5") == (
            409,
            {"error": "a replay, or a request out of order", "last": "1.5"},
        )
        assert club.post(state, path=LIVE, count="1.6")[0] == 200
        store.club.pair(db, BOARD, b"n" * 32, "2026-11-28T00:00:00+00:00")  # paired again: a new key
        assert club.post(state, path=LIVE, count="1.7") == (403, {"error": "bad signature"})  # the old key's
        assert club.post(state, path=LIVE, count="1.7", key="n" * 32)[0] == 200
        for _ in range(protocol.BURST):  # its allowance spent: a replay is still a replay, costing nothing
            assert club.post(state, path=LIVE, count="1.7", key="n" * 32)[0] == 409
        store.club.unpair(db, BOARD, "2026-11-28T01:00:00+00:00")
        assert club.post(state, path=LIVE, count="1.8", key="n" * 32) == (403, {"error": "its key was revoked"})
        assert [r["state"] for r in store.club.live_states(db, [BOARD])] == [json.dumps(state["state"])]
        assert store.club.key_of(db, BOARD)["last"] == (1, 7)
    finally:
        db.close()


def test_a_known_boards_allowance_is_spent_once_a_request_and_only_on_one_taken(club):
    state = {"state": a_live_state()}
    statuses = [club.post(state, path=LIVE)[0] for _ in range(protocol.BURST + 2)]
    assert statuses == [200] * protocol.BURST + [429, 429]
    assert club.post({"state": {}}, path=LIVE)[0] == 429  # past its allowance, a bad state is not looked at
    club.clock.now += 1 / protocol.RATE
    assert club.post({"state": {}}, path=LIVE)[0] == 422  # a refused state spends the one it had
    assert club.post(state, path=LIVE)[0] == 429


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)  # (SQLite's one writer lets no pairing in between)
@pytest.mark.parametrize("path", [GAMES, LIVE])
def test_a_request_whose_board_is_paired_again_while_it_is_checked_moves_no_counter(club, monkeypatch, path):
    """`cribboard pair` gives a board a new key, its counter started again, between the server's read of the
    old key and its take of the request's counter: the request, signed with the old key, is refused as one
    signed with no key of the board's, and nothing of it is kept, so the pairing's proof (counter 0.1) is taken."""
    read = store.club.key_of
    new_key = "n" * 32

    def key_of_then_paired_again(db, board):
        row = read(db, board)
        monkeypatch.setattr(store.club, "key_of", read)
        other = store.connect(club.db_url)
        try:
            store.club.pair(other, BOARD, new_key.encode(), "2026-11-30T00:00:00+00:00")
        finally:
            other.close()
        return row

    monkeypatch.setattr(store.club, "key_of", key_of_then_paired_again)
    body = batch(1) if path == GAMES else {"state": a_live_state()}
    assert club.post(body, path=path, count="3.9") == (403, {"error": "bad signature"})
    db = store.connect(club.db_url)
    try:
        assert store.club.key_of(db, BOARD)["last"] == (0, 0)
        assert db.value("SELECT COUNT(*) FROM games") == 0 and store.club.live_states(db, [BOARD]) == []
    finally:
        db.close()
    assert club.post({"state": a_live_state()}, path=LIVE, count="0.1", key=new_key)[0] == 200
