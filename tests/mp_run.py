# Runs the shared tests under MicroPython, which has no pytest: imports every
# test_*.py in a folder, calls each test_* function, counts passes and failures.
# Usage: micropython mp_run.py LABEL TEST_DIR [PATH ...]   (PATHs go on sys.path)
# CPython runs it too, for the CircuitPython edge with its stand-in modules.
import gc
import os
import sys

try:
    print_exception = sys.print_exception  # MicroPython
except AttributeError:
    import traceback

    def print_exception(e):
        traceback.print_exception(type(e), e, e.__traceback__)


def absolute(path):
    """A relative sys.path entry is resolved again at every import, against
    the folder of the moment: tests that run a board's files in its drive's
    folder would lose the rest."""
    return path if path.startswith("/") else os.getcwd() + "/" + path


def main(label, test_dir, paths):
    for p in paths:
        sys.path.insert(0, absolute(p))
    sys.path.insert(0, absolute(test_dir))
    names = sorted([n[:-3] for n in os.listdir(test_dir) if n.startswith("test_") and n.endswith(".py")])
    passed = failed = 0
    for name in names:
        module = __import__(name)
        for attr in sorted(dir(module)):
            fn = getattr(module, attr)
            if not attr.startswith("test_") or not callable(fn):
                continue
            gc.collect()  # each test on a collected heap: one test's garbage does not fragment the next's
            try:
                fn()
                passed += 1
            except Exception as e:  # report every failure, then go on
                failed += 1
                print("FAIL %s.%s" % (name, attr))
                print_exception(e)
        del module, fn
        sys.modules.pop(name, None)  # its code freed: each file's tests start on as roomy a heap as the first's
    print("%s: %d passed, %d failed" % (label, passed, failed))
    return failed


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print("usage: micropython mp_run.py LABEL TEST_DIR [PATH ...]")
        sys.exit(2)
    sys.exit(1 if main(sys.argv[1], sys.argv[2], sys.argv[3:]) else 0)
