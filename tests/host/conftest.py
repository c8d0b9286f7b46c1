# The database tests run on both engines: a SQLite file, and a real
# PostgreSQL server started for the session (pgserver.py).
import os
import shutil
import signal
import tempfile

import pytest
from pgserver import Cluster


@pytest.fixture(scope="session", autouse=True)
def compiled_modules_cache(tmp_path_factory):
    """The flashes of a test run share one compiled-modules cache of their
    own (cribboard.deploy.compile_cache, under XDG_CACHE_HOME): the user's is left alone,
    and the run's many flashes compile each module once, whichever pytest-xdist worker
    runs them (the cache is shared safely by processes at once: test_mpycache.py)."""
    was = os.environ.get("XDG_CACHE_HOME")
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # (each worker's folder is in the run's)
    cache = run / "cache"
    cache.mkdir(exist_ok=True)
    os.environ["XDG_CACHE_HOME"] = str(cache)
    yield
    if was is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = was


@pytest.fixture(scope="session", autouse=True)
def command_forks():
    """The process the session's commands are forked from (clirun) ends with the session, before the
    leftovers are looked for."""
    yield
    import clirun

    clirun.stop_forks()


@pytest.fixture(autouse=True)
def own_runtime_folder(monkeypatch):
    """Each test's simulated boards announce themselves in a runtime folder of its own
    (cribboard.sim.registry, under XDG_RUNTIME_DIR): a command a test runs with no --port finds only the
    test's own board, never one another test runs beside it. (A short path: programs put sockets there.)"""
    folder = tempfile.mkdtemp(prefix="xdg")
    monkeypatch.setenv("XDG_RUNTIME_DIR", folder)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


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


@pytest.fixture(scope="module")
def board(request, tmp_path_factory):
    """A simulated board the module's tests share (simboard.Board: the real
    firmware on MicroPython's unix port; an indirect parameter
    "circuitpython" gives that edition), stopped after them. A module that
    needs another board defines its own `board`."""
    from simboard import Board

    b = Board(tmp_path_factory.mktemp("board") / "flash", edition=getattr(request, "param", "micropython"))
    b.wait_saved()  # its first state, as every test here expects
    yield b
    b.stop()


def _fresh_database(engine, request, path):
    return str(path) if engine == "sqlite" else request.getfixturevalue("pg_cluster").new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh database on each engine, as a --db argument."""
    return _fresh_database(request.param, request, tmp_path / "results.sqlite3")


@pytest.fixture
def another_db_url(db_url, request, tmp_path):
    """A second fresh database on db_url's engine (another club's)."""
    engine = "postgresql" if db_url.startswith("postgresql") else "sqlite"
    return _fresh_database(engine, request, tmp_path / "another.sqlite3")


def pytest_addoption(parser):
    parser.addoption("--sweep", action="store_true", help="run the long fault sweeps (make test-faults)")
    parser.addoption("--club", action="store_true", help="run the club's load tests (make test-club)")


def pytest_collection_modifyitems(config, items):
    from pico import image, image_problem

    if image_problem() and any("pico" in item.keywords for item in items):
        raise pytest.UsageError(image_problem())  # an image was given but cannot be used: say so, run nothing
    if not config.getoption("--club"):
        skip_club = pytest.mark.skip(reason="a club's load on simulated WiFi boards, one at a time: make test-club")
        for item in items:
            if item.get_closest_marker("club") is not None:
                item.add_marker(skip_club)
    if config.getoption("--sweep"):
        return
    skip = pytest.mark.skip(reason="a long fault sweep: make test-faults")
    for item in items:
        if "sweep" in item.keywords and not ("pico" in item.keywords and image() is None):
            item.add_marker(skip)  # (without the image a Pico sweep is skipped for that, in one line)


def pytest_runtest_setup(item):
    """A test marked `pico` needs the MicroPython image: without it, it is
    skipped here, before its fixtures start an emulated Pico, and every such
    test folds into one line of the summary saying what to set."""
    from pico import NO_IMAGE, image

    if item.get_closest_marker("pico") and image() is None:
        pytest.skip(NO_IMAGE)


def flashed(board):
    """board (powered off) flashed by `cribboard flash`, the command as a user runs it; its flash."""
    from clirun import cli

    board.start()
    try:
        done = cli("flash", "--port", board.port, timeout=300)
        assert done.returncode == 0, done.stderr
    finally:
        board.stop()
    return board.flash


@pytest.fixture(scope="session")
def pico_image(tmp_path_factory):
    """The flash of an emulated Pico that `cribboard flash` deployed once, for
    the tests that start from a flashed board (each copies it)."""
    from pico import Pico

    return flashed(Pico(tmp_path_factory.mktemp("pico") / "flashed.bin"))


@pytest.fixture(scope="session")
def unix_image(tmp_path_factory):
    """The same for the simulated board (the firmware on the unix port)."""
    from simboard import UnixPico

    return flashed(UnixPico(tmp_path_factory.mktemp("unix") / "flashed"))
