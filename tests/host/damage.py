# A SQLite file as a user's can go wrong: damaged as a failing SD card or a
# cut write leaves one (a table's first page overwritten with junk, the rest
# of the file intact: a write elsewhere would still succeed beside it), or
# one the user may only read.
import contextlib
import os
import sqlite3
import subprocess

import pytest


def damage(db, table="games"):
    conn = sqlite3.connect(db)
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    conn.close()
    with open(db, "r+b") as f:
        f.seek((root - 1) * size)
        f.write(b"\xde\xad" * (size // 2))


@contextlib.contextmanager
def read_only(path, or_skip=True):
    """path as a user finds a file they may only read: mode 0444, which stops anyone but root; for root,
    whom modes do not stop (the tests' machines run as root), the file made immutable as well (chattr +i:
    SQLite then opens it to read only, as it does a user's 0444 file). Where that cannot be done, the test
    is skipped, saying why (or_skip=False: None is given instead of the path)."""
    os.chmod(path, 0o444)
    immutable = os.geteuid() == 0
    if immutable:
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
        if done.returncode:
            os.chmod(path, 0o644)
            if or_skip:
                pytest.skip("root, and this file system cannot make a file immutable: %s" % done.stderr.strip())
            yield None
            return
    try:
        yield path
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        os.chmod(path, 0o644)
