# A real `cribboard serve` for the club tests: started on a database where
# the given boards are paired, on a port of its own (or the one given, to
# restart it where its boards look for it), and stopped with SIGTERM.
import json
import signal
import subprocess
import sys

from cribboard import store

KEY = "6b" * 16  # 128 bits, as hex: what `cribboard pair` gives a board


def pair(db_url, board, key=KEY):
    db = store.connect(db_url)
    store.club.pair(db, board, key, "2001-11-30T00:00:00+00:00")
    db.close()


def start(db_url, port=0):
    """(the process, its URL)."""
    proc = subprocess.Popen([sys.executable, "-m", "cribboard", "serve", "--db", db_url, "--http",
                             "127.0.0.1:%d" % port, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    return proc, json.loads(proc.stdout.readline())["url"]


def stop(proc):
    """Stop it as a club's machine would; its stderr (the refusals it logged). Once."""
    if proc.returncode is not None:
        return ""
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    return err
