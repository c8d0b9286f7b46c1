# How much the club's server gives any one client: a request allowance (a
# bucket refilled at a steady rate) per paired board, and one per source
# address for requests it refuses; and log lines per source address, so a
# flood of refusals cannot fill the club's disk. Kept in memory, bounded:
# the oldest entries go first when there are more than MAX_KEYS.
import threading
from collections import OrderedDict
from collections.abc import Callable

MAX_KEYS = 4096  # boards or addresses remembered at once


class Allowance:
    """Per key, a bucket of `burst` requests refilled at `rate` a second."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self._clock = rate, burst, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, when)
        self._lock = threading.Lock()

    def _level(self, key: str, now: float) -> float:
        tokens, when = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - when) * self.rate)

    def spend(self, key: str) -> bool:
        """Take one request from key's allowance; False if it has none left."""
        with self._lock:
            now = self._clock()
            tokens = self._level(key, now)
            ok = tokens >= 1
            self._buckets[key] = (tokens - 1 if ok else tokens, now)
            self._buckets.move_to_end(key)
            if len(self._buckets) > MAX_KEYS:
                self._buckets.popitem(last=False)
            return ok

    def left(self, key: str) -> bool:
        """Whether key has a request left (nothing is spent)."""
        with self._lock:
            return self._level(key, self._clock()) >= 1


class LogLimit:
    """At most `lines` log lines per source address in each `period` seconds.
    Once a period, the addresses whose lines were dropped are given back
    with how many, for one summary line each."""

    def __init__(self, lines: int, period: float, clock: Callable[[], float]) -> None:
        self.lines, self.period, self._clock = lines, period, clock
        self._seen: OrderedDict[str, list[float]] = OrderedDict()  # address -> [period start, lines, dropped]
        self._swept = clock()
        self._lock = threading.Lock()

    def take(self, address: str) -> tuple[bool, list[tuple[str, int]]]:
        """(whether to write this address's line, [(address, lines dropped)] to say now)."""
        with self._lock:
            now = self._clock()
            summaries = self._sweep(now) if now - self._swept >= self.period else []
            seen = self._seen.get(address)
            if seen is None or now - seen[0] >= self.period:
                if seen is not None and seen[2]:
                    summaries.append((address, int(seen[2])))
                self._seen[address] = [now, 1.0, 0.0]
                self._seen.move_to_end(address)
                if len(self._seen) > MAX_KEYS:
                    self._seen.popitem(last=False)
                return True, summaries
            if seen[1] < self.lines:
                seen[1] += 1
                return True, summaries
            seen[2] += 1
            return False, summaries

    def _sweep(self, now: float) -> list[tuple[str, int]]:
        self._swept = now
        out = []
        for address, seen in self._seen.items():
            if seen[2] and now - seen[0] >= self.period:
                out.append((address, int(seen[2])))
                seen[2] = 0.0
        return out
