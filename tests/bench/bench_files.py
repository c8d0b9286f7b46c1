# The board's files as `cribboard flash` writes them: how many, in which
# folders, and their bytes, for a WiFi board (a Pico W: the club's sender
# too) and a plain Pico. Every file on the board costs each power-up a
# look-up or more (docs/benchmarks.md), so a change that moves modules
# prints this before and after. Prints JSON.
#   python tests/bench/bench_files.py
import json
from collections import Counter

from cribboard.deploy import firmware_files


def files(wifi):
    built = firmware_files.build(wifi=wifi)
    folders = Counter(remote.rpartition("/")[0] or "." for remote, _body in built)
    code = [(r, b) for r, b in built if r.endswith((".py", ".mpy"))]
    return {
        "files": len(built),
        "code_files": len(code),
        "code_bytes": sum(len(b) for _r, b in code),
        "folders": dict(sorted(folders.items())),
    }


if __name__ == "__main__":
    print(json.dumps({"wifi": files(True), "plain": files(False)}))
