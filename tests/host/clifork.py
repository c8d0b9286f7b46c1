# A process that has imported the cribboard command once and forks it for
# each `cribboard ARGS...` a test runs (tests/host/clirun.py): the command
# runs in a process of its own, with its own stdin, stdout, stderr,
# environment, folder and exit status, as `python -m cribboard` would, but
# without paying Python's start and the imports again (about 0.2 s of CPU a
# command; the suite runs over a thousand).
#
# Started by clirun with one end of a socket pair as its stdin. Each request
# comes on it as a message carrying four descriptors (a socket of its own
# for the answer, and the command's stdin, stdout and stderr) and then, on
# that socket, the length-prefixed JSON of the command (argv, env, cwd). The
# answer socket is told "pid N" at once and "exit CODE" (negative: the
# signal) when the command ends. It ends when the socket pair closes.
#
# What differs from a fresh process is what a module did when it was
# imported here: clirun runs a command in a fresh process instead whenever
# its environment changes what Python itself reads at its start (the
# locale's variables, PYTHON*).
import json
import os
import select
import signal
import socket
import struct
import sys

sys.path.pop(0)  # this file's folder (the tests' helpers) is no part of the command's path

import cribboard

# Every module of the tool, imported here once (a forked command's CPU was mostly its own imports): none
# reads the environment, the folder or the time as it is imported. But the plot (matplotlib reads its
# configuration and font cache from HOME as it is imported), the stand-ins for a board's hardware modules,
# and what runs the tool.
LEFT_TO_THE_COMMAND = ("cribboard.reports.plot", "cribboard.mp", "cribboard.cp")
# And the libraries the tool imports on demand, but matplotlib (as the plot).
ON_DEMAND = (
    "psycopg",
    "psycopg_pool",
    "rich.console",
    "rich.table",
    "rich.text",
    "rich.cells",
    "rich.progress",
    "mpremote.transport_serial",
    "segno",
)


def _import_the_tool():
    import importlib
    import pkgutil

    for module in pkgutil.walk_packages(cribboard.__path__, "cribboard."):
        name = module.name
        if name.endswith(".__main__") or any(
            name == left or name.startswith(left + ".") for left in LEFT_TO_THE_COMMAND
        ):
            continue
        importlib.import_module(name)
    for name in ON_DEMAND:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # (an extra this install lacks: the command says so)


_import_the_tool()

HEAD = struct.Struct(">Q")


def _read_exactly(sock, n):
    data = b""
    while len(data) < n:
        got = sock.recv(n - len(data))
        if not got:
            raise EOFError
        data += got
    return data


def serve(master):
    """Fork a command for each request; returns only in a forked child: (argv, env, cwd)."""
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # (the wakeup fd is what is read)
    answers = {}  # pid -> its answer socket
    while True:
        ready, _, _ = select.select([master, wake_r], [], [])
        if wake_r in ready:
            os.read(wake_r, 4096)
        while answers:  # the commands that ended
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            answer = answers.pop(pid)
            try:
                answer.sendall(b"exit %d\n" % os.waitstatus_to_exitcode(status))
            except OSError:
                pass  # the test gave up on it
            answer.close()
        if master not in ready:
            continue
        try:
            _data, fds, _flags, _addr = socket.recv_fds(master, HEAD.size, 4)
        except OSError:
            fds = []
        if len(fds) != 4:
            return None  # the test process has gone: so do we
        answer = socket.socket(fileno=fds[0])
        stdio = fds[1:]
        try:
            (size,) = HEAD.unpack(_read_exactly(answer, HEAD.size))
            request = json.loads(_read_exactly(answer, size))
        except (EOFError, OSError, ValueError):
            answer.close()
            for fd in stdio:
                os.close(fd)
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for sock in [master, answer, *answers.values()]:
                sock.close()
            os.close(wake_r)
            os.close(wake_w)
            for n, fd in enumerate(stdio):
                os.dup2(fd, n)
                os.close(fd)
            return request
        for fd in stdio:
            os.close(fd)
        answers[pid] = answer
        answer.sendall(b"pid %d\n" % pid)


def become(request):
    """This forked child becomes `python -m cribboard ARGV` in the request's folder and environment."""
    import random
    import runpy

    os.environ.clear()
    os.environ.update(request["env"])
    if request["cwd"] is not None:
        os.chdir(request["cwd"])
    sys.path.insert(0, os.getcwd())  # as -m puts the folder it is run in first
    random.seed()  # a fresh process's own seed, not the one every fork would share
    buffered = not os.environ.get("PYTHONUNBUFFERED")
    # Standard streams made again over the new descriptors, as a fresh process makes them.
    sys.stdin = open(0, encoding=sys.stdin.encoding, errors=sys.stdin.errors, closefd=False)
    sys.stdout = open(
        1, "w", encoding=sys.stdout.encoding, errors=sys.stdout.errors, closefd=False, buffering=-1 if buffered else 1
    )
    sys.stderr = open(2, "w", encoding=sys.stderr.encoding, errors=sys.stderr.errors, closefd=False, buffering=1)
    if not buffered:
        sys.stdout.reconfigure(write_through=True)
    sys.argv = ["cribboard", *request["argv"]]
    try:
        runpy.run_module("cribboard", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as e:
        code = _exit_status(e.code)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    os._exit(_ended(code))


def _exit_status(code):
    """What the interpreter makes of sys.exit(code)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    sys.stderr.write("%s\n" % (code,))
    return 1


def _ended(code):
    """An interpreter's exit but its modules' teardown (70 ms of the 80 a forked command took): its threads
    waited for, its atexit functions run, its streams flushed (a failed flush of stdout is status 120)."""
    import atexit
    import threading

    threading._shutdown()  # pyright: ignore[reportAttributeAccessIssue]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            if stream is sys.stdout:
                code = 120
    return code


def main():
    master = socket.socket(fileno=os.dup(0))
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # (the socket is not the commands' stdin)
    os.close(devnull)
    request = serve(master)
    if request is not None:
        become(request)


if __name__ == "__main__":
    main()
