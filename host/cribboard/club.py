# A club's server side of its boards' reports over WiFi (`cribboard serve`):
# each request from a board is checked before anything is kept, and every
# refusal is one log line and no change to the database. A request names
# its board (X-Cribboard-Board), its counter (X-Cribboard-Counter: BOOT.N,
# taken once, in order) and its signature (X-Cribboard-Signature: HMAC-SHA256
# under the key `cribboard pair` gave the board, over the method, path,
# board, counter and body: cribclub.signing, the board's own code). The
# answer to a good request is signed the same way over "ACK", so the board
# advances its sent-cursor only on the club's word. docs/protocol.md has
# the messages.
#   POST /board/v1/games  {"fw", "boot", "ticks", "period", "records": [[seq, record], ...]}
#                         -> {"board", "counter", "seq": the last of its games stored}
#   POST /board/v1/live   {"state": the board's saved state} -> {"board", "counter"}
import hmac
import json
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from cribboard import store
from cribboard.live import SeenBoard, drawn
from cribboard.records import BadRecord, check
from cribboard.sync import BOARD_ID, wall_time
from cribclub.signing import signature

log = logging.getLogger("club")
PATHS = ("/board/v1/games", "/board/v1/live")
MAX_BODY = 64 * 1024  # a batch of games (a record is at most a few KB)
RATE = 8.0  # requests a second a board may make, on average...
BURST = 24  # ... and at most this many at once


class Refused(Exception):
    """A request not taken: its HTTP status and the log's reason; for a
    board's own request out of its turn, the key and counter to sign the
    refusal with (signed)."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status
        self.signed: tuple[bytes, str] | None = None


class NetBoard(SeenBoard):
    """A board that reports over the network: its last live state."""

    def __init__(self, board: str) -> None:
        super().__init__({})
        self.board = board

    def scoreboard(self) -> dict[str, Any] | None:
        return dict(self._view, board=self.board) if self._view else None


class Club:
    """The boards' requests, checked, kept, answered. One database
    connection, used by the server's threads in turn."""

    def __init__(self, db_url: str, clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], float] = time.time) -> None:
        self.db = store.connect(db_url, threads=True)
        self.boards: list[NetBoard] = []  # the page's, in the order they first reported
        self._by_id: dict[str, NetBoard] = {}
        self._lock = threading.Lock()
        self._clock, self._now = clock, now
        self._buckets: dict[str, tuple[float, float]] = {}  # board -> (tokens, when)

    def close(self) -> None:
        self.db.close()

    def handle(self, method: str, path: str, headers: Any, body: bytes) -> tuple[int, bytes, dict[str, str]]:
        """(status, body, headers) of the answer to one request from a board."""
        board = headers.get("X-Cribboard-Board", "")
        try:
            with self._lock:
                answer, key, counter = self._take(method, path, headers, body)
        except Refused as e:
            log.warning("refused %s from board %s: %s", path[:40], ascii(board[:64]), e)
            if e.signed is None:
                return e.status, json.dumps({"error": str(e)}).encode(), {}
            # The board's own request, signed, with a counter at or before the last taken: its boot count
            # went back (a state it could not read). Said where the count stands, signed, it goes on after it.
            key, counter = e.signed
            with self._lock:
                last = store.club.last_counter(self.db, board)
            data = json.dumps({"error": str(e), "last": "%d.%d" % last if last else None}).encode()
            return e.status, data, {"X-Cribboard-Signature": signature(key, "ACK", path, board, counter, data)}
        data = json.dumps(answer).encode()
        return 200, data, {"X-Cribboard-Signature": signature(key, "ACK", path, board, counter, data)}

    def _take(self, method: str, path: str, headers: Any, body: bytes) -> tuple[dict[str, Any], bytes, str]:
        if path not in PATHS:
            raise Refused(404, "no such endpoint")
        board = headers.get("X-Cribboard-Board", "")
        counter = headers.get("X-Cribboard-Counter", "")
        given = headers.get("X-Cribboard-Signature", "")
        if not BOARD_ID.fullmatch(board):
            raise Refused(400, "no usable board id")
        boot, _dot, n = counter.partition(".")
        if not (boot.isdigit() and n.isdigit() and boot.isascii() and n.isascii()) or len(counter) > 24:
            raise Refused(400, "no usable counter (BOOT.N)")
        paired = store.club.key_of(self.db, board)
        if paired is None:
            raise Refused(403, "not a paired board")
        if paired["revoked_at"] is not None:
            raise Refused(403, "its key was revoked")
        key = paired["key"].encode()
        if not hmac.compare_digest(signature(key, method, path, board, counter, body), given):
            raise Refused(403, "bad signature")
        self._spend(board)
        try:
            data = json.loads(body)
        except ValueError:
            raise Refused(400, "the body is not JSON") from None
        if not isinstance(data, dict):
            raise Refused(400, "the body is not a JSON object")
        if path == PATHS[0]:
            games, walls = self._games(data)
            with self.db.transaction():
                self._counter(board, int(boot), int(n), key, counter)
                store.games.add(self.db, board, _text(data.get("fw")), games, _iso(self._now()), walls)
            return {"board": board, "counter": counter, "seq": store.games.last_seq(self.db, board)}, key, counter
        state = data.get("state")
        if not isinstance(state, dict):
            raise Refused(400, "no state")
        try:
            seen = drawn(state)
        except ValueError as e:
            raise Refused(422, str(e)[:200]) from None
        self._counter(board, int(boot), int(n), key, counter)
        if board not in self._by_id:
            self._by_id[board] = NetBoard(board)
            self.boards.append(self._by_id[board])
        self._by_id[board].show(seen)
        return {"board": board, "counter": counter}, key, counter

    def _counter(self, board: str, boot: int, n: int, key: bytes, counter: str) -> None:
        if not store.club.take_counter(self.db, board, boot, n):
            refused = Refused(409, "a replay, or a request out of order")
            refused.signed = (key, counter)
            raise refused

    def _games(self, data: dict[str, Any]) -> tuple[list[tuple[int, Any]], dict[int, float | None]]:
        """The records' games, each checked as a USB sync checks it; any that fails refuses them all."""
        records = data.get("records")
        if not isinstance(records, list) or not records:
            raise Refused(400, "no records")
        games = []
        for item in records:
            if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int and isinstance(item[1], str)):
                raise Refused(400, "a record is [seq, record]")
            try:
                games.append((item[0], check(item[1])))
            except BadRecord as e:
                raise Refused(422, "record %d: %s" % (item[0], str(e)[:200])) from None
        hello = {"boot": data.get("boot"), "ticks": data.get("ticks"), "period": data.get("period")}
        now = self._now()
        walls = {seq: wall_time(g.record, hello, now) if type(hello["ticks"]) is int else None for seq, g in games}
        return games, walls

    def _spend(self, board: str) -> None:
        """One request from the board's allowance (a bucket of BURST, refilled at RATE a second)."""
        now = self._clock()
        tokens, when = self._buckets.get(board, (float(BURST), now))
        tokens = min(float(BURST), tokens + (now - when) * RATE)
        if tokens < 1:
            self._buckets[board] = (tokens, now)
            raise Refused(429, "too many requests")
        self._buckets[board] = (tokens - 1, now)


def _text(value: Any) -> str | None:
    return value[:40] if isinstance(value, str) else None


def _iso(unix: float) -> str:
    return datetime.fromtimestamp(unix, timezone.utc).isoformat(timespec="seconds")
