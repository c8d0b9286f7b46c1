# Stand-in for CircuitPython's traceback module (CircuitPython 10: the
# CPython 3.10 form, print_exception(exc) and format_exception(exc), the
# exception's own traceback used when value and tb are not given; the
# output on the console, sys.stdout), for MicroPython's unix port, which has
# none, when the CircuitPython edge's tests run there (make test-cp). On
# CPython, its own traceback module takes the same calls.
import io
import sys


def format_exception(exc, value=None, tb=None, limit=None, chain=True):
    out = io.StringIO()
    sys.print_exception(exc if value is None else value, out)
    return [out.getvalue()]


def print_exception(exc, value=None, tb=None, limit=None, file=None, chain=True):
    sys.print_exception(exc if value is None else value, file or sys.stdout)
