# Running the cribboard command as a user would, for the host tests.
import os
import subprocess
import sys

# English unless a test asks for a language, whatever the machine's locale.
ENGLISH = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}


def cli(*args, stdin=None, env=None, cwd=None, timeout=300, check=False):
    """`cribboard ARGS...` in a new process: its exit status, stdout and
    stderr (check: it must have succeeded). The timeout only ends a hung
    command; it measures nothing."""
    done = subprocess.run(
        [sys.executable, "-m", "cribboard", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env={**os.environ, **ENGLISH, **(env or {})},
    )
    if check:
        assert done.returncode == 0, (args[:3], done.stderr)
    return done


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
