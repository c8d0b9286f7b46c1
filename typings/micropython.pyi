# The one name the shared core takes from MicroPython's `micropython` module, for the type checkers on
# CPython (pyrightconfig.core.json): the board's own stubs (.stubs/rp2) are for the board's code.
from typing import TypeVar

_T = TypeVar("_T")

def const(expr: _T, /) -> _T: ...
