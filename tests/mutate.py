# Do the storage tests have teeth? Each mutation below is a plausible bug in
# how the board keeps its state and its game log; the firmware's tests must
# fail for every one. A mutation that survives is a gap in them. Each is run
# on a copy of firmware/lib, with the firmware's store, power-cut, game and
# link tests on CPython. Prints one line a mutation and exits 1 if any
# survived. Usage: .venv/bin/python tests/mutate.py   (make mutate)
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = [
    "tests/firmware/test_fw_store.py",
    "tests/firmware/test_fw_powercut.py",
    "tests/firmware/test_fw_games.py",
    "tests/firmware/test_fw_link.py",
]

# (what the bug is, file under firmware/lib, text as it is, text with the bug)
MUTATIONS = [
    (
        "the whole log rewritten on every append",
        "cribapp/store.py",
        '            self.write(LOG, "ab", line)\n',
        "            try:\n"
        '                f = self.files.open(LOG, "rb")\n'
        "                old = f.read()\n"
        "                f.close()\n"
        "            except OSError:\n"
        '                old = b""\n'
        '            self.write(LOG, "wb", old + line)\n',
    ),
    (
        "last_seq and last_key set before the log write",
        "cribapp/store.py",
        '        line = seal("%d %s" % (seq, record_json))\n',
        '        line = seal("%d %s" % (seq, record_json))\n        self.last_seq = seq\n        self.last_key = key\n',
    ),
    (
        "an append that is not once per game",
        "cribapp/store.py",
        "        if key == self.last_key:\n            return self.last_seq\n",
        "",
    ),
    (
        "the state written in place, not through state.tmp",
        "cribapp/store.py",
        '            self.write(STATE_TMP, "wb", data)\n            self.replace_file(STATE_TMP, STATE)\n',
        '            self.write(STATE, "wb", data)\n',
    ),
    (
        "the old state removed before the new one is written",
        "cribapp/store.py",
        '            self.write(STATE_TMP, "wb", data)\n',
        '            self.files.remove(STATE)\n            self.write(STATE_TMP, "wb", data)\n',
    ),
    (
        "a torn last log line kept at boot",
        "cribapp/recovery.py",
        "            end = start  # a torn or corrupt last line: drop it\n",
        "            break\n",
    ),
    (
        "a corrupt log line listed to the host",
        "cribapp/store.py",
        "                text = unseal(line)\n",
        '                text = line.decode().rstrip("\\n")\n',
    ),
    ("the last record number not kept in the state", "cribapp/store.py", '        "seq": last_seq,\n', ""),
    (
        "a game logged before it is confirmed with OK",
        "cribapp/session.py",
        "        if g.over():\n            return WON\n",
        "",
    ),
]


def run(lib):
    """The tests against the firmware library in `lib`: True if they pass."""
    paths = "%s tests/core tests/firmware" % lib
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-o", "pythonpath=" + paths, *TESTS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return done.returncode == 0


def main():
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp) / "lib"
        shutil.copytree(ROOT / "firmware" / "lib", lib, ignore=shutil.ignore_patterns("__pycache__"))
        if not run(lib):
            print("the tests fail on the unmutated firmware: fix them first")
            return 1
        survived = 0
        for what, name, old, new in MUTATIONS:
            path = lib / name
            text = path.read_text()
            if text.count(old) != 1:
                print("mutation no longer applies (the code changed): %s" % what)
                return 1
            path.write_text(text.replace(old, new))
            try:
                killed = not run(lib)
            finally:
                path.write_text(text)
            survived += not killed
            print("%-8s %s" % ("killed" if killed else "SURVIVED", what))
    print("%d of %d mutations killed in %.0f s" % (len(MUTATIONS) - survived, len(MUTATIONS), time.monotonic() - t0))
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
