# The one way the sheets read a number a person typed: plain digits 0-9
# (int() would also take 1_0, " 7" and other scripts' digits).
import re

from cribboard.text.i18n import _


def number(word: str) -> int:
    """A count, a seat or a deal's number; ValueError says what is wrong."""
    if re.fullmatch(r"[0-9]+", word, re.ASCII) is None:
        if re.fullmatch(r"-[0-9]+", word, re.ASCII):
            raise ValueError(_("%s: counts are 0 or more") % word)
        raise ValueError(_("%r is not a number (digits 0-9)") % word)
    return int(word)
