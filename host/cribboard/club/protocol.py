# The club's side of its boards' reports over WiFi, free of any HTTP
# framework: one report in (a Report: its path, the headers it names, its
# body, the client's address), one answer out (status, body, headers),
# always; the server's routing table gives each path its taker
# (answer_games, answer_live). Each request is checked before anything is
# kept. It names its board (X-Cribboard-Board),
# its counter (X-Cribboard-Counter: BOOT.N, taken once, in order) and its
# signature (X-Cribboard-Signature: HMAC-SHA256 under the key `cribboard
# pair` gave the board, over the method, path, board, counter and body:
# cribcore.signing, the board's own code). The answer to a good request is
# signed the same way over "ACK", so the board moves its sent-cursor only on
# the club's word. docs/protocol.md has the messages.
#   POST /board/v1/games  {"fw", "boot", "ticks", "period", "last", "log", "after", "records": [[seq, record], ...]}
#                         -> {"board", "counter", "seq": the batch's last, "apart": [seqs kept apart]}
#   POST /board/v1/live   {"state": the board's saved state, "log", "after"} -> {"board", "counter"}
# "after" is the last record the board was told was stored; when the database lacks it (a restore), the
# answer's "resend" says the record to send again after (club.heal).
# Either answer also gives "names" (track 1 first: who deals first) while a
# club night seats a pair at the board in the round in play, and with them
# "best_of" while a tournament's playoff match is on at its table.
# Every refusal is a status and one log line (rate-limited per address), and
# changes nothing: 400/403/404/409/413/422/429 for the board's fault, 503
# with Retry-After for the server's (its database away or busy).
import hmac
import json
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

from cribboard import intake, store
from cribboard.club.heal import BadAfter, Heals, reported
from cribboard.club.liveboards import LiveBoards
from cribboard.club.ratelimit import MAX_KEYS, Allowance, LogLimit
from cribboard.intake import BOARD_ID, wall_time
from cribboard.records import MAX_INT, json_depth
from cribboard.store.engine import Database, DbError
from cribboard.store.pool import Pool
from cribboard.store.recent import Recent
from cribboard.web.boardstate import checked
from cribboard.web.http import JSON, RETRY_AFTER_S, Answer
from cribcore.clubwire import BOARD, COUNT_MAX, COUNTER, COUNTER_OF, LIVE, SIGNATURE
from cribcore.signing import pads, signature

log = logging.getLogger("club")
MAX_BODY = 64 * 1024  # a batch of games (a record is at most a few KB)
MAX_DEPTH = 8  # a report's JSON nests 4 deep; a state a little more
RATE = 8.0  # requests a second a board may make, on average...
BURST = 24  # ... and at most this many at once
REFUSED_RATE = 2.0  # refused requests a second from one address, on average...
REFUSED_BURST = 40  # ... and at most this many at once; then 429 before any other check
LOG_LINES = 10  # log lines per address a minute (then one summary line says how many were dropped)
NEW_LOGS = 4  # logs a board may start in a day (a wipe, a replacement: rare); past it its games wait on it
NEW_LOGS_S = 86_400
HEALTH_RATE = 1.0  # health checks a second from one address, on average (a monitor asks every few seconds)...
HEALTH_BURST = 10  # ... and at most this many at once
SEATING_S = 1.0  # how long the boards' seating is used before it is asked again (a round's change is that late)
SIGNATURE_RE = re.compile(r"[0-9a-f]{64}")
COUNTER_RE = re.compile(r"([0-9]{1,10})\.([0-9]{1,10})")  # what COUNTER_OF makes


class Refused(Exception):
    """A request not taken: its HTTP status and the log's reason; for a
    board's own request out of its turn, the key and counter to sign the
    refusal with, and the last counter taken (signed). keyed: a board's own
    new request, its signature checked (its address is charged nothing; a
    replay is not: anyone who heard a request can send it again)."""

    def __init__(
        self,
        status: int,
        why: str,
        signed: tuple[bytes, str, tuple[int, int] | None] | None = None,
        keyed: bool = False,
    ) -> None:
        super().__init__(why)
        self.status = status
        self.signed = signed
        self.keyed = keyed


@dataclass(frozen=True)
class Report:
    """A board's request as the club reads it: the path it was posted to, its headers (those named in
    cribcore.clubwire: BOARD, COUNTER, SIGNATURE; the rest are the HTTP edge's), its body (the JSON's
    bytes, signed) and the client's address."""

    path: str
    headers: Mapping[str, str]
    body: bytes
    peer: str = ""


@dataclass(frozen=True)
class Signed:
    """What a report's headers say of it, checked for form: its board, its counter (as sent, and as
    (boot, n)) and its signature."""

    board: str
    counter: str
    count: tuple[int, int]
    given: str

    def by(self, key: bytes | tuple[bytes, bytes], path: str, body: bytes) -> bool:
        """Whether the report was signed with key (bytes, or its pads)."""
        return hmac.compare_digest(
            signature(key, "POST", path, self.board, self.counter, body).encode(), self.given.encode()
        )


def signed(headers: Mapping[str, str]) -> Signed:
    """The report's board, counter and signature, or Refused if any is not of its form."""
    board = headers.get(BOARD, "")
    counter = headers.get(COUNTER, "")
    given = headers.get(SIGNATURE, "")
    if not BOARD_ID.fullmatch(board):
        raise Refused(400, "no usable board id")
    numbers = COUNTER_RE.fullmatch(counter)
    if numbers is None or max(int(numbers[1]), int(numbers[2])) > COUNT_MAX:  # (no board counts further: a
        # leaked key's counter at the top would leave the board nothing after it; refused, nothing moved)
        raise Refused(400, "no usable counter (BOOT.N, each a whole number up to %d)" % COUNT_MAX)
    if not SIGNATURE_RE.fullmatch(given):
        raise Refused(403, "no signature (64 hex digits)")
    return Signed(board, counter, (int(numbers[1]), int(numbers[2])), given)


Keep = Callable[[Database, str, dict[str, Any], tuple[int, int], bytes, str], dict[str, Any]]  # _games, _live


class Club:
    """The boards' requests, checked, kept, answered; each request on a
    connection of its own from the pool, no lock held across a wait."""

    def __init__(
        self,
        db_url: str,
        seating: Callable[[Database], dict[str, dict[str, Any]]],
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], float] = time.time,
        connections: int = 8,
    ) -> None:
        self.pool = Pool(db_url, connections)
        self._now = now
        self.allowance = Allowance(RATE, BURST, clock)  # per board, spent after its counter is checked
        self.refusals = Allowance(REFUSED_RATE, REFUSED_BURST, clock)  # per address, spent by each keyless refusal
        self._keys = Keys()  # the keys of the boards whose signed requests this server took, for a flooded address
        self.log_limit = LogLimit(LOG_LINES, 60.0, clock)
        self.live = LiveBoards(self.pool, self._note)  # the page's boards, and the others' followed
        self.health_checks = Allowance(HEALTH_RATE, HEALTH_BURST, clock)  # per address
        self.clock = clock  # (the night's page reads by it too)
        self._seating = seating  # what each board is told (cribboard.seating's, given by whoever builds this)
        self._seated_now: Recent[dict[str, dict[str, Any]]] = Recent(SEATING_S, clock)
        self.heals = Heals(self._note, lambda: _iso(self._now()))

    def close(self) -> None:
        self.live.close()
        self.pool.close()

    def follow(self) -> None:
        """Know the paired boards' keys from the start (a board is told from a stranger at a flooded address),
        and show on this server's page the boards other servers on the database heard (LiveBoards.follow)."""
        with self.pool.db() as db:
            for board, key in store.club.keys(db).items():
                self._keys.keep(board, key)
            self.heals.follow(db)
        self.live.follow()

    def healthy(self, peer: str = "") -> bool | None:
        """Whether the database answers now; None if peer has asked too often (a health check is the one
        request anyone may make that asks the database: a flood of them must not hold its connections)."""
        if not self.health_checks.spend(peer):
            self._note(peer, "refused GET /healthz from %s: asked too often", peer)
            return None
        return self.pool.healthy()

    def answer_games(self, report: Report) -> Answer:
        """The answer to a board's games (POST /board/v1/games)."""
        return self._answer(report, self._games)

    def answer_live(self, report: Report) -> Answer:
        """The answer to a board's live state (POST /board/v1/live): in one statement when this server
        knows all it needs (_live_known), else the full way, as games are answered."""
        return self._answer(report, self._live, self._live_known)

    def _answer(
        self, report: Report, keep: Keep, known: Callable[[Report, Signed], Answer | None] | None = None
    ) -> Answer:
        peer, path = report.peer, report.path
        board = ascii(report.headers.get(BOARD, "")[:64])
        try:
            if not self.refusals.left(peer) and not self._keys.fresh(report):
                # (a board behind the same address, a NAT or a balancer, as a stranger flooding it, still gets
                # in: its signature checks with its key, without the database's word)
                raise Refused(429, "too many refused requests from this address")
            sign = signed(report.headers)
            answer = known(report, sign) if known is not None else None
            return answer if answer is not None else self._take(report, sign, keep)
        except Refused as e:
            if e.status != 429 and not e.keyed:  # (a board's own request, signed, costs its address nothing)
                self.refusals.spend(peer)
            self._note(peer, "refused POST %s from %s, board %s: %s", ascii(path[:40]), peer, board, e)
            return self._refusal(e, path, report.headers)
        except DbError as e:
            self._note("database", "answered 503 to POST %s from %s: %s%s", ascii(path[:40]), peer, e, _disk(e))
            return Answer(
                503,
                _json({"error": "the club's database is away or busy; try again"}),
                JSON,
                {"Retry-After": str(RETRY_AFTER_S)},
            )
        except Exception as e:  # a fault of this server's: still one answer, and one line to find it by
            return self.failed_here(peer, "POST", path, e)

    def failed_here(self, peer: str, method: str, path: str, e: Exception) -> Answer:
        """A fault of this server's on a request: one line to find it by, and the 500 that answers it."""
        self._note(
            peer,
            "failed on %s %s from %s: %s: %s",
            method[:8],
            ascii(path[:40]),
            peer,
            type(e).__name__,
            ascii(str(e)[:200]),
        )
        return Answer(500, _json({"error": "the club's server failed on this request"}))

    def refused_here(self, peer: str, method: str, path: str, status: int, why: str) -> None:
        """A request the HTTP edge refused before it reached handle: its line and its cost, as handle's."""
        if status != 429:
            self.refusals.spend(peer)
        self._note(peer, "refused %s %s from %s: %s", method[:8], ascii(path[:40]), peer, why)

    def _note(self, key: str, message: str, *args: Any) -> None:
        """One log line, unless key (an address, or "database") has had its share this minute."""
        write, dropped = self.log_limit.take(key)
        for where, n in dropped:
            log.warning("dropped %d more log lines about %s in the last minute", n, where)
        if write:
            log.warning(message, *args)

    def _refusal(self, e: Refused, path: str, headers: Mapping[str, str]) -> Answer:
        if e.signed is None:
            return Answer(e.status, _json({"error": str(e)}))
        # The board's own request, signed, with a counter at or before the last taken: its boot count went
        # back (a state it could not read). Said where the count stands, signed, it goes on after it.
        key, counter, last = e.signed  # (read with the request's own connection: none is taken again here)
        board = headers.get(BOARD, "")
        data = _json({"error": str(e), "last": COUNTER_OF % last if last else None})
        return Answer(e.status, data, JSON, {SIGNATURE: signature(key, "ACK", path, board, counter, data)})

    def _take(self, report: Report, sign: Signed, keep: Keep) -> Answer:
        """The full way: the board's key and last counter read, the report checked against them, then kept
        (keep: _games or _live), in one transaction."""
        board, counter, count, path = sign.board, sign.counter, sign.count, report.path

        def work(db: Database, paired: dict[str, Any] | None) -> tuple[bytes, dict[str, Any]]:
            if paired is None:
                raise Refused(403, "not a paired board")
            if paired["revoked_at"] is not None:
                raise Refused(403, "its key was revoked")
            key = paired["key"]
            if not sign.by(key, path, report.body):
                raise Refused(403, "bad signature")
            self._keys.keep(board, key)
            last = paired["last"]
            if count <= last:
                raise Refused(409, "a replay, or a request out of order", (key, counter, last))
            self._keys.passed(board, count)
            try:
                if not self.allowance.spend(board):  # after the counter: a replay costs the board nothing
                    raise Refused(429, "too many requests")
                answer = keep(db, board, _object(report.body), count, key, counter)
            except Refused as e:
                e.keyed = True
                raise
            return key, self._named(db, board, answer)

        # (on SQLite in the database's one writer, committed with the other requests waiting: store.groupwrite)
        key, answer = self.pool.with_first(lambda db: store.club.key_of(db, board), work)
        raw = _json(answer)
        return Answer(200, raw, JSON, {SIGNATURE: signature(key, "ACK", path, board, counter, raw)})

    def _games(
        self, db: Database, board: str, data: dict[str, Any], count: tuple[int, int], key: bytes, counter: str
    ) -> dict[str, Any]:
        records = data.get("records")
        if not isinstance(records, list) or not records:
            raise Refused(400, "no records")
        if not all(isinstance(item, list) and len(item) == 2 and isinstance(item[1], str) for item in records):
            raise Refused(400, "a record is [seq, record]")
        last = data.get("last")
        if last is not None and (type(last) is not int or not 0 <= last <= MAX_INT):
            raise Refused(400, "last is the board's last record number, from 0 to %d" % MAX_INT)
        log = intake.log_of(data.get("log"))
        if log is None:
            raise Refused(400, "log is the id the board's log was made with: 16 hex digits")
        said = _said(data)
        now = self._now()
        if not store.games.known_log(db, board, log):
            started = store.games.logs_since(db, board, _iso(now - NEW_LOGS_S))
            if started >= NEW_LOGS:  # (its key may have leaked: each new log is another batch of games)
                raise Refused(
                    429, "%d new logs in a day already: a new log is a wipe or a replacement (%s)" % (started, log)
                )
        try:
            batch = intake.classify(db, board, [(item[0], item[1]) for item in records], last, log)
        except intake.BadBatch as e:
            raise Refused(422, str(e)) from None
        hello = {"boot": data.get("boot"), "ticks": data.get("ticks"), "period": data.get("period")}
        walls = {seq: wall_time(g.record, hello, now) for seq, g in batch.games}
        fw = data.get("fw")
        with db.transaction():
            self._counter(db, board, count, key, counter)
            store.games.add(
                db, board, fw[:40] if isinstance(fw, str) else None, batch.games, _iso(now), walls, batch.apart, log
            )
        if batch.apart:
            self._note(
                board,
                "kept apart from board %s: %s",
                board,
                "; ".join("record %d: %s" % (seq, why[:100]) for seq, why, _raw in batch.apart),
            )
        self.heals.stored(db, board, log, [seq for seq, _g in batch.games] + [a[0] for a in batch.apart])
        answer = {"board": board, "counter": counter, "seq": records[-1][0], "apart": [a[0] for a in batch.apart]}
        return self._healed(db, board, said, answer)

    def _live(
        self, db: Database, board: str, data: dict[str, Any], count: tuple[int, int], key: bytes, counter: str
    ) -> dict[str, Any]:
        state = _state_of(data)
        said = _said(data)
        # The counter and the state together: another server shows it, from the database.
        version = store.club.take_live(db, board, *count, _iso(self._now()), json.dumps(state), key)
        if version is None:  # another request with this counter was first, or the board was paired again since
            raise _replay(db, board, key, counter)
        self.live.show(board, int(version), state)
        return self._healed(db, board, said, {"board": board, "counter": counter})

    def _healed(self, db: Database, board: str, said: tuple[str, int] | None, answer: dict[str, Any]) -> dict[str, Any]:
        """The answer, with "resend" if the database lacks the record the board was told was stored."""
        resend = self.heals.check(db, board, said)
        if resend is not None:
            answer["resend"] = resend
        return answer

    def _live_known(self, report: Report, sign: Signed) -> Answer | None:
        """A live report answered in one statement, when this server knows all it needs: signed with the
        board's key as this server keeps it, counting after the last request it saw the board's pass, an
        allowance left, a board's state in its body. The statement that keeps the state checks again, with
        the write, what the database holds (the key still the board's and not revoked, the counter after
        the last taken). Anything else (a key rotated or revoked, another server's counter, a fault in the
        body) is None, and nothing changed: the full way (_take's) then answers the request as it would
        have."""
        board, counter, count = sign.board, sign.counter, sign.count
        known = self._keys.known(board, count)
        if known is None:
            return None
        key, signs = known
        if not sign.by(signs, LIVE, report.body):
            return None
        if not self.allowance.left(board):
            return None
        try:
            data = _object(report.body)
            state = _state_of(data)
            if not self.heals.known(board, _said(data)):
                return None  # (the full way asks the database whether it holds what the board was told)
        except Refused:
            return None
        state_json = json.dumps(state)

        def named(db: Database, version: int | None) -> tuple[int | None, dict[str, Any]]:
            return version, ({} if version is None else self._named(db, board, {"board": board, "counter": counter}))

        version, answer = self.pool.with_first(
            lambda db: store.club.take_live(db, board, *count, _iso(self._now()), state_json, key), named
        )
        if version is None:
            return None
        self.allowance.spend(board)  # (once taken: the full way spends before, a replay spending nothing)
        self._keys.passed(board, count)
        self.live.show(board, int(version), state)
        raw = _json(answer)
        return Answer(200, raw, JSON, {SIGNATURE: signature(signs, "ACK", LIVE, board, counter, raw)})

    def _named(self, db: Database, board: str, answer: dict[str, Any]) -> dict[str, Any]:
        """The answer, with the names of the pair a club night (or a playoff match) seats at the board, if it
        does, and the match's length for a playoff."""
        answer.update(self._seated(db).get(board, {}))
        return answer

    def _seated(self, db: Database) -> dict[str, dict[str, Any]]:
        """What each board is told: the pair a club night puts at it in the round in play, or a playoff
        match's (asked at most once a SEATING_S; a request that comes in while it is asked again uses the
        one before)."""
        return self._seated_now.get(lambda: self._seating(db))

    def _counter(self, db: Database, board: str, count: tuple[int, int], key: bytes, counter: str) -> None:
        # (key: a board paired again since its key was read here is not the board that signed with it)
        if not store.club.take_counter(db, board, *count, _iso(self._now()), key):  # another request was first
            raise _replay(db, board, key, counter)


def _replay(db: Database, board: str, key: bytes, counter: str) -> Refused:
    """The refusal of a request whose counter was not taken: another took it first (signed, with the board's
    last counter), or the board was paired again or revoked since its key was read (as the full way says it)."""
    now = store.club.key_of(db, board)
    if now is None or now["key"] != key:
        return Refused(403, "bad signature")
    if now["revoked_at"] is not None:
        return Refused(403, "its key was revoked")
    return Refused(409, "a replay, or a request out of order", (key, counter, now["last"]))


class Keys:
    """The paired boards' keys, and the last counter this server saw each one pass, in memory (bounded:
    the least recently used go first): what tells a board's new request from a stranger's (or a replay)
    when their address has used its refusals, without asking the database. A key revoked or rotated since
    is refused by the database's checks after this one."""

    def __init__(self, most: int = MAX_KEYS) -> None:
        # board: (its key, the key's pads made once, the last counter seen to pass)
        self._keys: OrderedDict[str, tuple[bytes, tuple[bytes, bytes], tuple[int, int]]] = OrderedDict()
        self._most = most
        self._lock = threading.Lock()

    def keep(self, board: str, key: bytes) -> None:
        with self._lock:
            known = self._keys.get(board)
            if known is not None and known[0] == key:
                self._keys[board] = known
            else:
                self._keys[board] = (key, pads(key), (0, 0))
            self._keys.move_to_end(board)
            if len(self._keys) > self._most:
                self._keys.popitem(last=False)

    def passed(self, board: str, count: tuple[int, int]) -> None:
        """The board's request with this counter passed the counter's check (it, or an earlier one sent
        again, will not pass fresh())."""
        with self._lock:
            known = self._keys.get(board)
            if known is not None and count > known[2]:
                self._keys[board] = (known[0], known[1], count)

    def known(self, board: str, count: tuple[int, int]) -> tuple[bytes, tuple[bytes, bytes]] | None:
        """The board's key and its pads (what signs with it), if this server knows it and count is after the
        last it saw the board's pass."""
        with self._lock:
            known = self._keys.get(board)
        return known[:2] if known is not None and count > known[2] else None

    def fresh(self, report: Report) -> bool:
        """Whether the report is signed with the key of the board it names and counts after the last one
        this server saw it pass, as far as this server knows."""
        try:
            sign = signed(report.headers)
        except Refused:
            return False
        known = self.known(sign.board, sign.count)
        return known is not None and sign.by(known[1], report.path, report.body)


def board_headers(key: bytes, path: str, board: str, counter: str, body: bytes) -> dict[str, str]:
    """The headers of a board's report of body to path, signed as the board signs it (cribcore.clubwire
    has its bytes): for a pairing's proof, and for the tests and benches that play a board."""
    return {
        "Content-Type": "application/json",
        BOARD: board,
        COUNTER: counter,
        SIGNATURE: signature(key, "POST", path, board, counter, body),
    }


def acknowledged(key: bytes, path: str, board: str, counter: str, body: bytes, given: str | None) -> bool:
    """Whether an answer's signature (given) is the club's word on that request, as a board checks it."""
    return given is not None and hmac.compare_digest(
        given.encode(), signature(key, "ACK", path, board, counter, body).encode()
    )


def _object(body: bytes) -> dict[str, Any]:
    if json_depth(body) > MAX_DEPTH:
        raise Refused(400, "the body nests deeper than %d" % MAX_DEPTH)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise Refused(400, "the body is not JSON") from None
    if not isinstance(data, dict):
        raise Refused(400, "the body is not a JSON object")
    return data


def _disk(e: DbError) -> str:
    """A hint for the director when the database's words are of its disk (SQLite's "database or disk is full",
    "disk I/O error"; PostgreSQL's "No space left on device")."""
    said = str(e).lower()
    return " (is the database's disk full?)" if "disk" in said or "no space" in said else ""


def _said(data: dict[str, Any]) -> tuple[str, int] | None:
    """The (log, after) of a report (club.heal), None from firmware that says none; Refused if malformed."""
    try:
        return reported(data)
    except BadAfter as e:
        raise Refused(400, str(e)) from None


def _state_of(data: dict[str, Any]) -> dict[str, Any]:
    """The board's state in a live report, checked as the board checks its own (web.boardstate.checked)."""
    state = data.get("state")
    if not isinstance(state, dict):
        raise Refused(400, "no state")
    try:
        checked(state)
    except (ValueError, OverflowError, RecursionError) as e:
        raise Refused(422, "not a board's state: %s" % ascii(str(e)[:200])) from None
    return state


def _json(value: Any) -> bytes:
    return json.dumps(value).encode()


def _iso(unix: float) -> str:
    return _iso_second(int(unix))


@lru_cache(maxsize=4)  # (every request of a second stamps the same: made once)
def _iso_second(unix: int) -> str:
    return datetime.fromtimestamp(unix, timezone.utc).isoformat(timespec="seconds")
