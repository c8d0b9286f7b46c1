# A throw-away PostgreSQL server for the tests: Debian's server programs
# (`make test` installs the postgresql package), a cluster in a temporary
# folder, reached only through a Unix socket there (no TCP port), fsync off.
# PostgreSQL refuses to run as root: as root the cluster belongs to the
# `postgres` user the package creates.
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import threading

from deadline import WAIT_S

USER = "cribboard"  # the cluster's superuser, as the tests connect
WAIT = str(WAIT_S)  # pg_ctl's own wait for the server to start or stop (its default, 60 s, is a guess)


def server_bin():
    """The folder of initdb and pg_ctl, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return os.path.dirname(found[-1])
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


def _unwound_by_sigterm():
    """A SIGTERM to a process that has no handler for it (a bench's script) unwinds it as Ctrl-C does, so
    that whatever stops this cluster (a finally, a with) runs: by default SIGTERM ends a Python program at
    once, and a server of its would be left running."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, signal.default_int_handler)


class Cluster:
    def __init__(self):
        bindir = server_bin()
        if bindir is None:
            raise RuntimeError("PostgreSQL's server is not installed: `make test` installs Debian's postgresql")
        self.bin = bindir
        _unwound_by_sigterm()
        self.dir = tempfile.mkdtemp(prefix="cribboard-pg-")
        self.owner = None
        if os.geteuid() == 0:
            self.owner = pwd.getpwnam("postgres")
            os.chown(self.dir, self.owner.pw_uid, self.owner.pw_gid)
        self.data = os.path.join(self.dir, "data")
        self._names = itertools.count(1)
        self._run("initdb", "-D", self.data, "-U", USER, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync")
        self._options = "-c listen_addresses='' -k %s -c fsync=off -c full_page_writes=off" % self.dir
        self.running = False
        self.start_server()

    def start_server(self):
        """(Again:) the server up, waited for (pg_ctl -w)."""
        self._run(
            "pg_ctl",
            "-D",
            self.data,
            "-w",
            "-t",
            WAIT,
            "-l",
            os.path.join(self.dir, "server.log"),
            "-o",
            self._options,
            "start",
        )
        self.running = True

    def stop_server(self):
        """The server down, as a restart takes it (every connection cut), the cluster kept."""
        self._run("pg_ctl", "-D", self.data, "-w", "-t", WAIT, "-m", "fast", "stop")
        self.running = False

    def _run(self, tool, *args):
        cmd = [os.path.join(self.bin, tool), *args]
        if self.owner is not None:
            cmd = ["runuser", "-u", self.owner.pw_name, "--", *cmd]
        done = subprocess.run(cmd, cwd=self.dir, capture_output=True, text=True, timeout=int(WAIT) + 60)
        if done.returncode:
            raise RuntimeError("%s failed: %s%s" % (tool, done.stdout, done.stderr))

    def url(self, dbname="postgres"):
        return "postgresql://%s@/%s?host=%s" % (USER, dbname, self.dir)

    def new_database(self):
        """A fresh, empty database's URL."""
        import psycopg

        name = "test_%d" % next(self._names)
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE %s" % name)
        return self.url(name)

    def stop(self):
        if self.running:
            self.running = False
            try:
                self._run("pg_ctl", "-D", self.data, "-w", "-t", WAIT, "-m", "immediate", "stop")
            except BaseException:  # (pg_ctl failed, timed out, or a second signal came): nothing left running
                self._kill_postmaster()
                raise
            finally:
                shutil.rmtree(self.dir, ignore_errors=True)
        shutil.rmtree(self.dir, ignore_errors=True)

    def _kill_postmaster(self):
        """SIGKILL to the server and its children (the postmaster's pid is its pid file's first line)."""
        try:
            with open(os.path.join(self.data, "postmaster.pid")) as f:
                pid = int(f.readline())
        except (OSError, ValueError):
            return
        for child in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split():
            with contextlib.suppress(OSError):
                os.kill(int(child), signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
