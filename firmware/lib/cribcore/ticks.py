# MicroPython's ticks arithmetic for any millisecond counter: the one copy,
# for CPython (cribapp.compat), CircuitPython's clock (code.py), the host's
# reading of a board's ticks (sync) and the tests' fake clock.
from cribcore import TICKS_PERIOD, const

# typing's TYPE_CHECKING at no cost to a board: a private const, so the branch is folded away and the name
# never kept; the type checkers take it as true (pyproject.toml's mypy, the pyright configs).
_TYPE_CHECKING = const(0)
if _TYPE_CHECKING:
    from collections.abc import Callable


class Ticks:
    """MicroPython's ticks arithmetic for a millisecond counter `now()` that
    wraps at `period`, a power of two. A clock the app can be given:
    CircuitPython's supervisor.ticks_ms() wraps at 2**29, not 2**30."""

    def __init__(self, period: int = TICKS_PERIOD, now: "Callable[[], int] | None" = None) -> None:
        self.TICKS_PERIOD = period
        self._mask = period - 1
        self._half = period // 2
        self._now = now or self._no_counter

    def _no_counter(self) -> int:
        raise RuntimeError("this Ticks was given no counter: it does the arithmetic only")  # a caller's mistake

    def ticks_ms(self) -> int:
        return self._now() & self._mask

    def ticks_add(self, ticks: int, delta: int) -> int:
        return (ticks + delta) & self._mask

    def ticks_diff(self, end: int, start: int) -> int:
        return ((end - start + self._half) & self._mask) - self._half
