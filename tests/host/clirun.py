# Running the cribboard command as a user would, for the host tests: each
# command in a process of its own, forked from one that has imported the
# command already (clifork.py), or started afresh where its environment
# changes what Python reads as it starts.
import atexit
import json
import locale
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
from pathlib import Path

# English unless a test asks for a language, whatever the machine's locale.
ENGLISH = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}
# What Python reads as it starts (its streams' encoding, its locale): a command given other values of these
# is forked from a process started with them (one for each set of values); one given PYTHON* variables
# (its flags, its path: another release's code) is started afresh.
AT_START = ("LANG", "LC_ALL", "LC_CTYPE")


def cli(*args, stdin=None, env=None, cwd=None, timeout=300, check=False):
    """`cribboard ARGS...` in a new process: its exit status, stdout and
    stderr (check: it must have succeeded). The timeout only ends a hung
    command; it measures nothing."""
    full_env = {**os.environ, **ENGLISH, **(env or {})}
    if _afresh(env):
        done = subprocess.run(
            [sys.executable, "-m", "cribboard", *args],
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd,
            env=full_env,
        )
    else:
        done = _forked(list(args), stdin, full_env, cwd, timeout)
    if check:
        assert done.returncode == 0, (args[:3], done.stderr)
    return done


def popen(*args, env=None):
    """`cribboard ARGS...` running on (a server, a viewer) in a new process, as subprocess.Popen gives it with
    stdin from /dev/null and stdout and stderr as text pipes: forked as cli's are, but given PYTHON* variables
    (env: its whole environment, as Popen's)."""
    if _afresh(env):
        return subprocess.Popen(
            [sys.executable, "-m", "cribboard", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
    return Forked(list(args), {**os.environ, **ENGLISH} if env is None else env)


def _afresh(env):
    """Whether a command given env starts afresh: PYTHON* variables are read as Python starts."""
    return any(k.startswith("PYTHON") for k in env or {})


class _Forks:
    """A process the commands are forked from (one for each test process and set of AT_START values, started
    at its first command)."""

    HEAD = struct.Struct(">Q")

    def __init__(self, env):
        here, theirs = socket.socketpair()
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("clifork.py"))],
            stdin=theirs,
            env=env,
        )
        theirs.close()
        self.sock = here
        self.lock = threading.Lock()

    def start(self, argv, env, cwd):
        """(pid, what clifork says of it (_Said), and this process's ends of its stdin, stdout and stderr)."""
        mine, theirs = socket.socketpair()
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            with self.lock:
                socket.send_fds(self.sock, [self.HEAD.pack(0)], [theirs.fileno(), in_r, out_w, err_w])
            body = json.dumps({"argv": argv, "env": env, "cwd": None if cwd is None else str(cwd)}).encode()
            mine.sendall(self.HEAD.pack(len(body)) + body)
        except BaseException:
            mine.close()
            for fd in (in_w, out_r, err_r):
                os.close(fd)
            raise
        finally:
            theirs.close()
            for fd in (in_r, out_w, err_w):
                os.close(fd)
        said = _Said(mine)
        line = said.line(None)
        assert line.startswith(b"pid "), "clifork: %r" % line
        return int(line[4:]), said, in_w, out_r, err_r

    def stop(self):
        self.sock.close()  # it ends when its end closes
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class _Said:
    """The lines clifork says about one command, read from its answer socket."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def line(self, timeout):
        """The next line (b"" if clifork has gone), or TimeoutError after timeout seconds (None: no limit)."""
        self.sock.settimeout(timeout)
        while b"\n" not in self.buf:
            got = self.sock.recv(4096)
            if not got:
                return b""
            self.buf += got
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def close(self):
        self.sock.close()


_forks = {}  # the AT_START values (key) -> the process that forks the commands given them
_forks_lock = threading.Lock()


def stop_forks():
    """End the processes the commands are forked from (the test session's end)."""
    with _forks_lock:
        for forks in _forks.values():
            forks.stop()
        _forks.clear()


atexit.register(stop_forks)


def _forks_for(env):
    """The process that forks the commands run with env's AT_START values."""
    key = tuple((k, env[k]) for k in AT_START if k in env)
    with _forks_lock:
        forks = _forks.get(key)
        if forks is None or forks.proc.poll() is not None:
            forks = _forks[key] = _Forks(env)
        return forks


def _forked(argv, stdin, env, cwd, timeout):
    pid, said, in_w, out_r, err_r = _forks_for(env).start(argv, env, cwd)
    out, err = [], []

    def pump(fd, into):
        with open(fd, "rb") as f:
            into.append(f.read())

    def feed():
        with open(in_w, "wb") as f:
            try:
                f.write((stdin or "").encode(locale.getpreferredencoding(False)))
            except BrokenPipeError:
                pass  # the command ended without reading it all, as subprocess.run allows

    threads = [threading.Thread(target=pump, args=a, daemon=True) for a in ((out_r, out), (err_r, err))]
    threads.append(threading.Thread(target=feed, daemon=True))
    for t in threads:
        t.start()
    try:
        line = said.line(timeout)
    except TimeoutError:
        os.kill(pid, signal.SIGKILL)
        said.line(None)  # its end, told once it has gone
        raise subprocess.TimeoutExpired(["cribboard", *argv], timeout) from None
    finally:
        for t in threads:
            t.join()
        said.close()
    assert line.startswith(b"exit "), "clifork: %r" % line
    encoding = locale.getpreferredencoding(False)

    def text(chunks):  # as subprocess.run(text=True) gives it
        return b"".join(chunks).decode(encoding).replace("\r\n", "\n").replace("\r", "\n")

    return subprocess.CompletedProcess(["cribboard", *argv], int(line[5:]), text(out), text(err))


class Forked:
    """A command forked to run on, seen as a subprocess.Popen with text pipes: pid, stdout, stderr, poll(),
    wait(), send_signal(), terminate(), kill(), returncode. Signalled through a pidfd (opened while clifork
    cannot have reaped it: it waits to be told the command ended), never a pid used again."""

    def __init__(self, argv, env):
        self.args = ["cribboard", *argv]
        self.pid, self._said, in_w, out_r, err_r = _forks_for(env).start(argv, env, None)
        try:
            self._pidfd = os.pidfd_open(self.pid)
        except ProcessLookupError:
            self._pidfd = None  # (it ended at once: there is nothing to signal)
        os.close(in_w)  # (stdin: nothing, as /dev/null gives)
        encoding = locale.getpreferredencoding(False)
        self.stdout = open(out_r, encoding=encoding)
        self.stderr = open(err_r, encoding=encoding)
        self.stdin = None
        self.returncode = None
        self._ended = threading.Event()
        threading.Thread(target=self._wait_for_its_end, daemon=True).start()

    def _wait_for_its_end(self):
        line = self._said.line(None)
        self._said.close()
        self.returncode = int(line[5:]) if line.startswith(b"exit ") else -1  # (-1: clifork itself has gone)
        self._ended.set()

    def poll(self):
        return self.returncode

    def wait(self, timeout=None):
        if not self._ended.wait(timeout):
            raise subprocess.TimeoutExpired(self.args, timeout)
        return self.returncode

    def send_signal(self, sig):
        if self.returncode is None and self._pidfd is not None:
            try:
                signal.pidfd_send_signal(self._pidfd, sig)
            except ProcessLookupError:
                pass  # ended meanwhile

    def terminate(self):
        self.send_signal(signal.SIGTERM)

    def kill(self):
        self.send_signal(signal.SIGKILL)

    def __del__(self):
        if getattr(self, "_pidfd", None) is not None:
            os.close(self._pidfd)


def one_line_error(done, code=1, word="error"):
    """The command failed with `code` and said why in one line on stderr, no
    traceback (word: "error" in the language the command spoke)."""
    assert done.returncode == code, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("cribboard: %s: " % word), done.stderr
    return last


def line_starting(stream, prefix):
    """The first line a running command writes to stream that starts with
    prefix. The lines before it are its progress, said as it waits (a board
    slow to answer on a busy machine: "no answer yet; waiting ...")."""
    seen = []
    while True:
        line = stream.readline()
        if not line:
            raise AssertionError("no line starting %r; it said: %r" % (prefix, seen))
        if line.startswith(prefix):
            return line
        seen.append(line)


def headless_sim(flash, *more, http="127.0.0.1:0", as_json=True):
    """The command that starts a simulated board with no browser: `cribboard sim --headless`, its page at http
    (port 0: one the system gives), its flash in the folder given, saying its address as JSON on stdout's
    first line (as_json); more: further options. For a process the caller starts and stops itself."""
    cmd = [sys.executable, "-m", "cribboard", "sim", "--headless", "--http", http, "--flash", str(flash)]
    return cmd + (["--json"] if as_json else []) + list(more)
