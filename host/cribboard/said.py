# What an error says, in the reader's language. The host's own errors are
# translated where they are raised. The scoring core's and the board files'
# checks (cribcore, cribapp.layoutfile and .config) run on the board too,
# where there is no gettext: they raise a CoreError, a code and its values
# (cribcore.messages holds the English). Here the code's sentence comes
# from the catalogue, and each value is said in the same language: a
# phrase that is itself a CoreError (barbu's "deal N: ...", an LED's role,
# a name's problem), and a word of the game (a barbu contract, elder or
# younger), which the core passes as its code.
from collections.abc import Callable

from cribboard.i18n import _
from cribcore import CoreError
from cribcore.messages import MESSAGES, names

Gettext = Callable[[str], str]


def said(error: BaseException, gettext: Gettext = _) -> str:
    """The error's message: a CoreError's in gettext's language, any other's as it is."""
    if isinstance(error, CoreError):
        return _core(error, gettext)
    return str(error)


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
        word = WORDS[name]().get(value)
        if word is not None:
            return gettext(word)
    return value


def _contracts() -> dict[str, str]:
    from cribboard.barbu_sheet import CONTRACT_NAMES

    return CONTRACT_NAMES


def _hands() -> dict[str, str]:
    from cribboard.piquet_deal import WHO, WHO_WORDS

    return dict(zip(WHO, WHO_WORDS, strict=True))


# The placeholders whose value is a word of the game, and where its words
# are (imported when first said: those modules say core errors too).
WORDS: dict[str, Callable[[], dict[str, str]]] = {"contract": _contracts, "who": _hands}
