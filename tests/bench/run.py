# `make bench`: runs every benchmark and prints a Markdown table of the
# figures, with the command that reproduces each one.
import json
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / ".venv" / "bin"
LIB = str(ROOT / "firmware" / "lib")
HEAP = "192wK"


def run_json(cmd):
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    cpy_cmd = [str(BIN / "python"), "tests/bench/bench_core.py", LIB]
    mpy_cmd = [str(BIN / "micropython"), "-X", "heapsize=" + HEAP, "tests/bench/bench_core.py", LIB]
    full_cmd = [str(BIN / "python"), "tests/bench/full_distribution.py", LIB]
    cpy = run_json(cpy_cmd)
    mpy = run_json(mpy_cmd)
    full = run_json(full_cmd)

    print("Machine: %s, %s, Python %s" % (platform.machine(), platform.processor() or "cpu", platform.python_version()))
    print()
    print("| figure | CPython | MicroPython unix (heap %s) | budget |" % HEAP)
    print("|---|---|---|---|")
    print("| hands scored per second | %d | %d | |" % (cpy["hands_per_s"], mpy["hands_per_s"]))
    print("| microseconds per hand | %.2f | %.2f | |" % (cpy["us_per_hand"], mpy["us_per_hand"]))
    print("| reference loop (100,000 additions), microseconds | %d | %d | |"
          % (cpy["reference_us"], mpy["reference_us"]))
    print("| 1,000 hands in reference-loop units | %.2f | %.2f | |"
          % (cpy["ref_units_per_1000_hands"], mpy["ref_units_per_1000_hands"]))
    print("| heap taken by one score() call, bytes (max / mean) | n/a | %d / %d | |"
          % (mpy["heap_bytes_max"], mpy["heap_bytes_mean"]))
    print("| all 12,994,800 hands, one core, seconds | %.1f | | <= 60 |" % full["seconds"])
    print()
    ok = full["hands"] == 12994800
    print("Full distribution: %d hands%s." % (full["hands"], "" if ok else " (WRONG COUNT)"))
    print()
    print("Commands:")
    for cmd in (cpy_cmd, mpy_cmd, full_cmd):
        print("    " + " ".join(str(Path(c).relative_to(ROOT)) if c.startswith(str(ROOT)) else c for c in cmd))
    if not ok or full["seconds"] > 60:
        sys.exit(1)


main()
