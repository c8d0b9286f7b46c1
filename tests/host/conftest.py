# The database tests run on both engines: a SQLite file, and a real
# PostgreSQL server started for the session (pgserver.py).
import signal

import pytest
from pgserver import Cluster


@pytest.fixture(scope="session")
def pg_cluster():
    # Stopped also when the tests are ended by SIGTERM: pytest then unwinds
    # as for Ctrl-C and runs this fixture's teardown.
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    cluster = Cluster()
    try:
        yield cluster
    finally:
        cluster.stop()
        signal.signal(signal.SIGTERM, previous)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh database on each engine, as a --db argument."""
    if request.param == "sqlite":
        return str(tmp_path / "results.sqlite3")
    return request.getfixturevalue("pg_cluster").new_database()


def pytest_addoption(parser):
    parser.addoption("--sweep", action="store_true", help="run the long fault sweeps (make test-faults)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--sweep"):
        return
    skip = pytest.mark.skip(reason="a long fault sweep: make test-faults")
    for item in items:
        if "sweep" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def pico_image(tmp_path_factory):
    """The flash of an emulated Pico that `cribboard flash` deployed once, for
    the tests that start from a flashed board (each copies it)."""
    from pico import flashed

    return flashed(tmp_path_factory.mktemp("pico") / "flashed.bin")
