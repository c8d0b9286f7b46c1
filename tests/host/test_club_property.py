# Whatever reaches the club's server, it answers: generated requests
# (hypothesis), signed and unsigned, any headers, any JSON, any numbers and
# depths, through its WSGI app in this process, on SQLite and PostgreSQL.
# Every answer has a status and a JSON body, the log has at most one line a
# request (and a summary of lines dropped), and the database changes only
# for a request the server took (200).
import json
import logging

import asgi
import clubserver
from clubserver import KEY
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_records import good

from cribboard import store
from cribboard.club.app import REASONS, ClubApp
from cribboard.club.front import Front
from cribboard.club.protocol import Club
from cribboard.seating import Seating
from cribcore.clubwire import GAMES, LIVE
from cribcore.signing import signature

BOARD = "b0ard"
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30,
)
records = st.lists(
    st.tuples(
        st.integers(min_value=-2, max_value=2**64) | json_values,
        st.sampled_from([json.dumps(good(n)) for n in range(1, 6)])
        | st.text(max_size=40)
        | st.integers(min_value=1, max_value=3000).map(lambda n: "[" * n + "]" * n),  # a record nested past any game
    ),
    max_size=4,
)
bodies = st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries(
        {
            "fw": json_values,
            "boot": json_values,
            "ticks": st.integers() | json_values,
            "period": st.integers() | json_values,
            "records": records.map(lambda r: [list(x) for x in r]),
        },
        optional={"last": json_values},
    ).map(lambda v: json.dumps(v).encode()),
    st.integers(min_value=1, max_value=5000).map(lambda n: b"[" * n),
    st.binary(max_size=64),
)
games = st.lists(st.integers(min_value=1, max_value=60), min_size=1, max_size=3, unique=True).map(
    lambda seqs: json.dumps(
        {
            "fw": "t",
            "boot": 1,
            "ticks": 9,
            "period": 1 << 30,
            "records": [[n, json.dumps(good(n))] for n in sorted(seqs)],
        }
    ).encode()
)
as_a_board = st.fixed_dictionaries(
    {  # what a board sends, its body any of the above or its games
        "method": st.just("POST"),
        "path": st.sampled_from([GAMES, GAMES, LIVE]),
        "board": st.just(BOARD),
        "counter": st.just("next"),
        "sign": st.just("key"),
        "junk": st.just(""),
        "body": games | bodies,
        "kind": st.just("application/json"),
        "origin": st.just(None),
    }
)
anything = st.fixed_dictionaries(
    {
        "method": st.sampled_from(["POST", "POST", "POST", "GET", "PUT"]),
        "path": st.sampled_from([GAMES, GAMES, LIVE, "/healthz", "/api/state", "/board/v1/other"])
        | st.text(max_size=12),
        "board": st.sampled_from([BOARD, BOARD, "nob0ard"]) | st.text(max_size=70),
        "counter": st.tuples(st.integers(min_value=0, max_value=2**40), st.integers(min_value=0, max_value=2**40)).map(
            lambda c: "%d.%d" % c
        )
        | st.text(max_size=30),
        "sign": st.sampled_from(["key", "key", "wrong", "none", "junk"]),
        "junk": st.text(max_size=70),
        "body": bodies,
        "kind": st.sampled_from(["application/json", "application/json", "text/plain", ""]),
        "origin": st.sampled_from([None, None, "http://evil.example"]),
    }
)
requests = as_a_board | anything
A_REPORT = {
    "method": "POST",
    "path": GAMES,
    "board": BOARD,
    "counter": "1.1",
    "sign": "key",
    "junk": "",
    "body": b"{}",
    "kind": "application/json",
    "origin": None,
}
GAMES_OF_ONE = json.dumps(
    {"fw": "t", "boot": 1, "ticks": 9, "period": 1 << 30, "records": [[1, json.dumps(good(1))]]}
).encode()
COUNTER = [0]  # the board's: "next" is the one after the last it used


def snapshot(db_url):
    db = store.connect(db_url)
    try:
        return (
            db.value("SELECT COUNT(*) FROM games"),
            db.value("SELECT COUNT(*) FROM rejected"),
            store.club.last_counter(db, BOARD),
        )
    finally:
        db.close()


def scope(r):
    """The request as uvicorn hands it to the front: headers as the bytes the client sent."""
    if r["counter"] == "next":
        COUNTER[0] += 1
        r = dict(r, counter="7.%d" % COUNTER[0])
    sig = {
        "key": signature(KEY.encode(), r["method"], r["path"], r["board"], r["counter"], r["body"]),
        "wrong": signature(b"0" * 32, r["method"], r["path"], r["board"], r["counter"], r["body"]),
        "none": "",
        "junk": r["junk"],
    }[r["sign"]]
    headers = {
        "content-type": r["kind"],
        "content-length": str(len(r["body"])),
        "x-cribboard-board": r["board"],
        "x-cribboard-counter": r["counter"],
        "x-cribboard-signature": sig,
    }
    if r["origin"]:
        headers["origin"] = r["origin"]
    raw = [(k.encode(), v.encode("utf-8", "surrogatepass")) for k, v in headers.items()]
    return {
        "type": "http",
        "method": r["method"],
        "path": r["path"],
        "query_string": b"",
        "headers": raw,
        "client": ("10.0.0.9", 50000),
    }, r["body"]


class Log(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def test_every_request_gets_one_answer_one_line_at_most_and_changes_only_what_it_may(db_url):
    clubserver.pair(db_url, BOARD)
    clock = [0.0]
    club = Club(db_url, Seating(), clock=lambda: clock[0])
    front = Front(ClubApp(club), None, 2, 1)
    log = Log()
    seen = set()
    logging.getLogger("club").addHandler(log)
    logging.getLogger("club").setLevel(logging.INFO)
    try:

        @settings(
            max_examples=150,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(requests)
        # Each kind of answer at least once, whatever parts of the strategies a run leaves out: a board's
        # games taken, a page's post refused, a path no one answers, a counter that is none.
        @example(dict(A_REPORT, counter="next", body=GAMES_OF_ONE))
        @example(dict(A_REPORT, origin="http://evil.example"))
        @example(dict(A_REPORT, path="/board/v1/other"))
        @example(dict(A_REPORT, counter="x.1"))
        @example(dict(A_REPORT, method="GET", path="/"))  # the room's page
        def one(r):
            clock[0] += 61.0  # each its own minute: the log limit never hides a second line
            before, lines = snapshot(db_url), len(log.lines)
            status, headers, body = asgi.call(front, *scope(r))
            assert status in REASONS
            seen.add(status)
            if headers.get("content-type", "").startswith("text/html"):  # a page asked for (GET /): not JSON
                assert (r["method"], status) == ("GET", 200) and body.startswith(b"<!doctype html>"), r
                assert snapshot(db_url) == before  # and a page changes nothing
                return
            answer = json.loads(body)
            assert isinstance(answer, dict)
            said = [line for line in log.lines[lines:] if not line.startswith("dropped ")]
            assert len(said) <= 1
            assert all("\n" not in line for line in said)
            if status == 503:
                assert headers["retry-after"]
            if status != 200:
                assert snapshot(db_url) == before, (status, answer)
            assert status < 500, (r, answer, said)  # nothing generated here is the server's fault

        one()
        assert {200, 400, 403, 404}.issubset(seen), seen  # taken and refused, not only one or the other
    finally:
        logging.getLogger("club").removeHandler(log)
        front.close()
        club.close()
