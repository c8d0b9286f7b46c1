# For every test run: whatever the tests started and left running is
# killed at the end of the run, and named (tests/leftovers.py).
from leftovers import pytest_configure, pytest_sessionfinish  # noqa: F401
