# A value a server's request threads share, read again at most once a
# period: while one thread reads it again the others use the value before,
# so twenty boards reporting in the same second cost the database one read,
# not twenty (only the very first read makes the others wait for it).
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Recent(Generic[T]):
    def __init__(self, period: float, clock: Callable[[], float]) -> None:
        self.period = period
        self._clock = clock
        self._kept: tuple[float, T] | None = None  # (read at, the value)
        self._reading = threading.Lock()

    def get(self, read: Callable[[], T]) -> T:
        """The value, from read() if the one kept is a period old or there is none yet; what read() raises
        goes to the caller, and the value before stays for the next."""
        kept = self._kept
        if kept is not None:
            if self._clock() - kept[0] < self.period or not self._reading.acquire(blocking=False):
                return kept[1]
        else:
            self._reading.acquire()
        try:
            kept = self._kept  # another thread may have read it while this one waited
            if kept is None or self._clock() - kept[0] >= self.period:
                at = self._clock()
                kept = self._kept = (at, read())
            return kept[1]
        finally:
            self._reading.release()
