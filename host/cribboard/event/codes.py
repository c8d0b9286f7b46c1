# A player's code: the secret that opens their own page of a night or a
# tournament (their seat, their game, their standing, their match), printed
# on their scorecard and listed for the director. Ten symbols of Crockford's
# base 32 (no I, L, O or U to misread; typed in any case, with or without the
# hyphen, an O read as 0 and an I or L as 1): 50 bits. Among 1,000 players'
# codes, a room guessing 100 a second for ten hours finds one with a chance
# of 3 in a million, and the page limits guesses far below that.
import secrets

SYMBOLS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 10
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1", "-": None, " ": None})


def make() -> str:
    """A new code, from the operating system's source of secrets."""
    return "".join(secrets.choice(SYMBOLS) for _ in range(LENGTH))


def shown(code: str) -> str:
    """A code as printed and listed: two groups of five ("7KQ2M-XD9RT")."""
    return "%s-%s" % (code[: LENGTH // 2], code[LENGTH // 2 :])


def read(text: str) -> str | None:
    """The code a player typed or a camera read, as kept; None for text that is no code."""
    code = text.strip().upper().translate(_READ_AS)
    if len(code) != LENGTH or any(c not in SYMBOLS for c in code):
        return None
    return code
