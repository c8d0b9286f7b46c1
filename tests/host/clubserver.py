# A real `cribboard serve` for the club tests: started on a database where
# the given boards are paired, on a port of its own (or the one given, to
# restart it where its boards look for it), and stopped with SIGTERM.
import json
import signal
import socket
import subprocess
import threading
import time
from contextlib import contextmanager

from clirun import popen
from deadline import WAIT_S

from cribboard import store

KEY = "6b" * 16  # 128 bits, as hex: what `cribboard pair` gives a board


def pair(db_url, board, key=KEY):
    db = store.connect(db_url)
    store.club.pair(db, board, key.encode(), "2001-11-30T00:00:00+00:00")
    db.close()


class Said:
    """A process's stderr, read as it comes: a pipe nobody reads fills at 64 KB, and then the
    server's next log line (a flood's refusals) would stop it mid-request."""

    def __init__(self, stream):
        self.lines = []
        self._ended = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream):
        for line in stream:
            with self._changed:
                self.lines.append(line)
                self._changed.notify_all()
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def wait_for(self, wanted, timeout=WAIT_S):
        """Until wanted(lines) (or the stream ends, or timeout): wanted(lines)."""
        with self._changed:
            self._changed.wait_for(lambda: wanted(self.lines) or self._ended, timeout)
            return wanted(self.lines)

    def text(self, timeout=WAIT_S):
        """All of it, once the process has closed it."""
        self._thread.join(timeout)
        with self._changed:
            return "".join(self.lines)


def start(db_url, port=0, args=(), env=None):
    """(the process, its URL); its stderr is proc.said (Said). args: more of serve's options. It makes no
    backups unless args give it a --backup-dir (test_backup.py's do: for the others, a PostgreSQL
    database's would go to the user data folder, outside the test's own). env: its environment, if not
    this process's."""
    if "--backup-dir" not in args:
        args = (*args, "--no-backups")
    proc = popen("serve", "--db", db_url, "--http", "127.0.0.1:%d" % port, "--json", *args, env=env)
    proc.said = Said(proc.stderr)
    line = proc.stdout.readline()
    assert line, "serve did not start: %s" % proc.said.text()
    return proc, json.loads(line)["url"]


@contextmanager
def serving(db_url, board):
    """A running serve on a database where board is paired: (url, db_url, its process)."""
    pair(db_url, board)
    proc, url = start(db_url)
    try:
        yield url, db_url, proc
    finally:
        stop(proc)


def stop(proc):
    """Stop it as a club's machine would; its stderr (the refusals it logged). Once."""
    if proc.returncode is not None:
        return ""
    if not hasattr(proc, "said"):  # (started by the test itself, its stderr a pipe)
        proc.said = Said(proc.stderr)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=WAIT_S)
    except subprocess.TimeoutExpired:  # stuck: what each of its threads is doing, then it is stopped
        proc.send_signal(signal.SIGUSR2)
        proc.said.wait_for(lambda lines: any("serve_until_stopped" in line for line in lines), 10)
        proc.kill()
        proc.wait()
        raise AssertionError(
            "serve did not stop within %d s of SIGTERM; its threads:\n%s" % (WAIT_S, "".join(proc.said.lines))
        ) from None
    if proc.stdout is not None:
        proc.stdout.close()
    err = proc.said.text()
    assert proc.returncode == 0, err
    return err


def whole_request(request):
    """Whether an HTTP request's head and the body its Content-Length names are all in."""
    head, sep, body = request.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(body) >= int(line.split(b":")[1])
    return True


class Proxy:
    """A proxy before the club's server, as a club's network might be: it
    times each exchange (the first byte of a request to the last of its
    answer) and cuts a connection where the test says: plan = (up, down),
    after `up` bytes of the request, or after all of it and `down` bytes of
    the answer (None: not cut). The Host a board names (this proxy) is the
    server's on the way (ephemeral ports: the same length). Given several
    servers, it takes turns: each connection goes to the next (round-robin,
    as a league's load balancer)."""

    def __init__(self, target):
        self.targets = target if isinstance(target, list) else [target]
        self.plan = (None, None)
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=64)
        self.url = "http://127.0.0.1:%d/" % self.listener.getsockname()[1]
        self.request = b""  # the last request passed on whole
        self.answer = b""  # the last answer, before its cut
        self.took = []  # (path, seconds) of each exchange passed on whole
        self.connections = 0  # accepted (a board that never connects is told from one whose exchange fails)
        self.accept_errors = []  # what accept() raised, if anything: said when a test fails
        self._lock = threading.Lock()
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def close(self):
        self._stop = True
        # On Linux close() does not wake a thread blocked in accept() on the
        # socket (the join then waited out its whole deadline); shutdown() does.
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        self._thread.join(WAIT_S)
        assert not self._thread.is_alive(), "the proxy's accept did not end"

    def _serve(self):
        while not self._stop:
            try:
                board, _addr = self.listener.accept()
            except OSError as e:
                if self._stop:
                    return  # closed
                self.accept_errors.append(e)  # (a connection reset before it was taken): take the next
                continue
            target = self.targets[self.connections % len(self.targets)]
            self.connections += 1
            threading.Thread(target=self._one, args=(board, target), daemon=True).start()

    def _one(self, board, target):
        with board:
            try:
                self._exchange(board, target)
            except OSError:
                pass  # the board gave up first, or the server is down (killed): the board tries again

    def _exchange(self, board, target):
        up, down = self.plan
        mine = b"Host: 127.0.0.1:%d\r\n" % self.listener.getsockname()[1]
        theirs = b"Host: %s:%d\r\n" % (target[0].encode(), target[1])
        assert len(mine) == len(theirs)
        request = b""
        passed = 0
        board.settimeout(WAIT_S)
        with socket.create_connection(target, timeout=WAIT_S) as club:
            while not whole_request(request):
                got = board.recv(4096)
                if not got:
                    return
                if not request:
                    began = time.perf_counter()
                request += got
                upto = len(request) if up is None else min(up, len(request))
                club.sendall(request.replace(mine, theirs)[passed:upto])
                passed = upto
                if up is not None and len(request) >= up:
                    if whole_request(request[:up]):
                        self.request = request[:up]  # passed on whole: its length
                    return  # cut: the server had `up` bytes of it
            self.request = request
            answer = b""
            while True:
                got = club.recv(4096)
                if not got:
                    break
                answer += got
        self.answer = answer
        board.sendall(answer if down is None else answer[:down])
        if down is None:
            with self._lock:
                self.took.append((request.split(b" ", 2)[1].decode(), time.perf_counter() - began))
