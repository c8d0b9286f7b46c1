# The club server's shared, periodically read values (club/recent.py): one
# read a period however many requests come, the value before while it is
# read again, and a failed read costing nothing kept.
import threading

import pytest
from deadline import WAIT_S

from cribboard.store.recent import Recent


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_a_value_is_read_once_a_period_and_again_after_it():
    clock, reads = Clock(), []
    recent: Recent[int] = Recent(1.0, clock)

    def read() -> int:
        reads.append(clock.t)
        return len(reads)

    assert [recent.get(read) for _ in range(5)] == [1] * 5
    clock.t += 0.999
    assert recent.get(read) == 1
    clock.t += 0.001
    assert recent.get(read) == 2
    assert reads == [100.0, 101.0]


def test_while_one_request_reads_it_again_the_others_use_the_one_before():
    clock = Clock()
    recent: Recent[str] = Recent(1.0, clock)
    assert recent.get(lambda: "round 1") == "round 1"
    clock.t += 5
    reading, done = threading.Event(), threading.Event()

    def slow() -> str:
        reading.set()
        assert done.wait(WAIT_S)
        return "round 2"

    got: list[str] = []
    first = threading.Thread(target=lambda: got.append(recent.get(slow)))
    first.start()
    try:
        assert reading.wait(WAIT_S)
        others = [recent.get(lambda: pytest.fail("read twice at once")) for _ in range(20)]
        assert others == ["round 1"] * 20
    finally:
        done.set()
        first.join(WAIT_S)
    assert got == ["round 2"]
    assert recent.get(lambda: pytest.fail("read again within the period")) == "round 2"


def test_the_first_read_is_waited_for_and_a_failed_read_keeps_nothing():
    clock = Clock()
    recent: Recent[str] = Recent(1.0, clock)

    def away() -> str:
        raise ConnectionError("the database is away")

    with pytest.raises(ConnectionError):
        recent.get(away)
    assert recent.get(lambda: "night") == "night"  # the lock was let go
    clock.t += 2
    with pytest.raises(ConnectionError):
        recent.get(away)
    assert recent.get(lambda: "again") == "again"  # the failed read moved nothing: read again now
