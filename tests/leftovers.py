# What a test run started and left running. Every process a test starts
# inherits this run's mark in its environment (a simulated board, its board
# process, a server, an emulated Pico, PostgreSQL), and /proc shows it even
# for one whose parent died and left it to init. At the end of the run
# (pytest-xdist: of each worker) whatever still carries the mark is killed
# and named on stderr: a red run leaves nothing behind.
# (Registered by tests/conftest.py; tests/host/test_leftovers.py checks it.)
import os
import signal
import sys

MARK = "CRIBBOARD_TEST_RUN"


def marked(mark):
    """(pid, command line) of every process but this one whose environment carries mark."""
    needle = b"\0%s=%s\0" % (MARK.encode(), mark.encode())
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open("/proc/%s/environ" % entry, "rb") as f:
                env = b"\0" + f.read()  # a zombie's is empty: it has ended
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue  # ended meanwhile, or not ours to read
        if needle in env or env.endswith(needle[:-1]):
            found.append((int(entry), cmd))
    return found


def pytest_configure(config):
    if getattr(config, "workerinput", None) is None and config.getoption("numprocesses", None):
        return  # pytest-xdist's controller: each worker marks and sweeps its own
    os.environ[MARK] = "%d-%s" % (os.getpid(), os.urandom(4).hex())


def pytest_sessionfinish(session):
    mark = os.environ.get(MARK, "")
    if not mark.startswith("%d-" % os.getpid()):
        return  # not this process's run (the controller, or a run inside a test)
    left = marked(mark)
    for pid, _cmd in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if left:
        sys.stderr.write(
            "leftovers: the tests left %d process(es) running, killed now:\n%s\n"
            % (len(left), "\n".join("  %d %s" % (pid, cmd[:200]) for pid, cmd in left))
        )
