# What an error says, in the reader's language. The host's own errors are
# translated where they are raised. The scoring core's and the board files'
# checks (cribcore, cribcore.layoutfile and .config) run on the board too,
# where there is no gettext: they raise a CoreError, a code and its values
# (cribcore.messages holds the English). Here the code's sentence comes
# from the catalogue, and each value is said in the same language: a
# phrase that is itself a CoreError (barbu's "deal N: ...", an LED's role,
# a name's problem), and a word of the game (a barbu contract, elder or
# younger), which the core passes as its code.
from collections.abc import Callable
from typing import Any

from cribboard.text.game_words import CONTRACT_NAMES, WHO, WHO_WORDS
from cribboard.text.i18n import _
from cribcore import CoreError
from cribcore.messages import MESSAGES, names

Gettext = Callable[[str], str]


def said(error: BaseException, gettext: Gettext = _) -> str:
    """The error's message: a CoreError's in gettext's language, any other's as it is."""
    if isinstance(error, CoreError):
        return _core(error, gettext)
    return str(error)


def core_from_data(data: Any, depth: int = 0) -> CoreError | None:
    """A rule's refusal sent or kept as data: [code, values], a value that is one itself as {"e": [...]}
    (the board's ERC line, a kept-apart record's reason); None for data that is not one."""
    if not (
        isinstance(data, list) and len(data) == 2 and type(data[0]) is int and isinstance(data[1], list) and depth < 4
    ):
        return None
    values = []
    for v in data[1]:
        if isinstance(v, dict):
            v = core_from_data(v.get("e"), depth + 1)
            if v is None:
                return None
        values.append(v)
    return CoreError(data[0], tuple(values))


def _core(error: CoreError, gettext: Gettext) -> str:
    code = error.args[0]
    values = error.args[1] if len(error.args) > 1 else ()
    template = MESSAGES.get(code)
    keys = names(template) if template is not None else []
    if template is None or len(values) != len(keys):
        return str(error)  # a newer board's code, or values that do not fit: as the core says it
    return gettext(template) % {k: _value(k, v, gettext) for k, v in zip(keys, values, strict=True)}


def _value(name: str, value: object, gettext: Gettext) -> object:
    if isinstance(value, CoreError):
        return _core(value, gettext)
    if name in WORDS and isinstance(value, str):
        word = WORDS[name].get(value)
        if word is not None:
            return gettext(word)
    return value


# The placeholders whose value is a word of the game, and its words.
WORDS: dict[str, dict[str, str]] = {"contract": CONTRACT_NAMES, "who": dict(zip(WHO, WHO_WORDS, strict=True))}
