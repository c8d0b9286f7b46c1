# For every test run: whatever the tests started and left running is
# killed at the end of the run, and named (tests/leftovers.py); a database
# is waited for as every other process is (tests/deadline.py), the tests'
# PostgreSQL server on a busy machine included (CRIBBOARD_DB_WAIT, which
# every cribboard the tests start inherits; a test that wants less says so),
# and so is a simulated board's answer on its link (CRIBBOARD_LINK_WAIT).
import os

import leftovers
from deadline import WAIT_S
from leftovers import pytest_sessionfinish  # noqa: F401


def pytest_configure(config):
    leftovers.pytest_configure(config)
    os.environ.setdefault("CRIBBOARD_DB_WAIT", str(WAIT_S))
    os.environ.setdefault("CRIBBOARD_LINK_WAIT", str(WAIT_S // 3))  # a board's answer: three tries in WAIT_S


def pytest_collection_modifyitems(items):
    """The longest tests first (tests/longest.txt), the rest as collected. Run with
    `--maxschedchunk 1` (make test-py), pytest-xdist hands each worker its next test
    as it needs one, so the run does not end waiting on a long test begun last."""
    from pathlib import Path

    listed = Path(__file__).with_name("longest.txt")
    if not listed.exists():  # (a test's own pytest run in a folder of its own)
        return
    names = [line for line in listed.read_text().split("\n") if line and not line.startswith("#")]
    rank = {name: n for n, name in enumerate(names)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("[")[0], len(rank)))  # (a stable sort)
