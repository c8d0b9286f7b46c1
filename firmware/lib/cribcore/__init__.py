# Cribbage scoring core shared by the board (MicroPython) and the host (CPython).
# Pure logic only: no I/O, no clock, no hardware.

__version__ = "0.1.0"

try:
    from micropython import const  # pyright: ignore[reportAssignmentType]
except ImportError:  # CPython: a constant is its value

    def const(x):  # pyright: ignore[reportMissingParameterType]  (typed as micropython's: typings/)
        return x


TICKS_PERIOD = const(1 << 30)  # MicroPython's ticks_ms() wraps here, on every port (cribcore.ticks)


class CoreError(ValueError):
    """What the rules refuse, as data: args are (code, values), the code a
    key of cribcore.messages.MESSAGES and the values what its placeholders
    take, in the order they first appear. str() is the English sentence;
    the host says it in the reader's language (cribboard.text.error_words). A CoreError
    is also a phrase inside another one (a deal's error, an LED's role). A
    board keeps only the codes: the words are loaded to be said, and
    cribapp drops them again."""

    def __str__(self):
        from cribcore.messages import english

        a = self.args
        return english(a[0], a[1] if len(a) > 1 else ())
