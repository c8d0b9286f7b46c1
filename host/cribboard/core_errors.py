# The firmware's shared code's errors in the reader's language: the scoring
# core's, and the checks of a layout or pin map (cribapp.layoutfile, .config).
# That code also runs on the board, where there is no gettext (and no heap to
# spare for it), so it raises plain English. Its messages are read from its
# own source, every `raise ValueError("..." % ...)`: tools/catalogues.py puts
# them in the catalogue, and translate() finds which one a message was made
# from and makes it again in the current language, with the same values.
import ast
import re
from collections.abc import Callable
from functools import cache
from importlib import resources

from cribboard.i18n import _

_CONVERSION = re.compile(r"%[-#0 +]*\d*[srd]")
_PATTERN = {"s": r"(.*?)", "r": r"(.+?)", "d": r"(-?\d+)"}


def _message(node: ast.AST) -> str | None:
    """The format string of ValueError("..." % args) or ValueError("...")."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        node = node.left
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def messages_in(source: str) -> list[str]:
    """The messages a module's source raises as ValueError, in order, once each."""
    out: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                and getattr(node.exc.func, "id", None) == "ValueError" and node.exc.args:
            message = _message(node.exc.args[0])
            if message and message not in out:
                out.append(message)
    return out


# Where the messages are: every module of a package, or the ones named.
SOURCES = (("cribcore", None), ("cribapp", ("layoutfile.py", "config.py")))


def sources() -> list[tuple[str, str]]:
    """(package/module.py, source) of each module that SOURCES names, as installed."""
    out = []
    for package, modules in SOURCES:
        for entry in sorted(resources.files(package).iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".py") and (modules is None or entry.name in modules):
                out.append(("%s/%s" % (package, entry.name), entry.read_text(encoding="utf-8")))
    return out


@cache
def messages() -> tuple[str, ...]:
    """Every message those modules raise."""
    out: list[str] = []
    for _where, source in sources():
        out += [m for m in messages_in(source) if m not in out]
    return tuple(out)


@cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    out = []
    for message in messages():
        pieces = _CONVERSION.split(message)
        kinds = [c[-1] for c in _CONVERSION.findall(message)]
        pattern = re.escape(pieces[0]) + "".join(_PATTERN[k] + re.escape(p) for k, p in zip(kinds, pieces[1:]))
        out.append((re.compile(pattern, re.DOTALL), message))
    # The most literal text first: "deal %d: %s" must not take what a longer message fits.
    out.sort(key=lambda pm: -len(_CONVERSION.sub("", pm[1])))
    return out


def translate(text: str, gettext: Callable[[str], str] = _) -> str:
    """A core message in the current language, or gettext's (any other text
    as it is). A %s value that is itself a core message (barbu's "deal %d:
    %s") is translated too."""
    for pattern, message in _patterns():
        found = pattern.fullmatch(text)
        if not found:
            continue
        said = gettext(message)
        if said == message and not any(k == "s" for k in _CONVERSION.findall(message)):
            return text
        values = iter(found.groups())  # a translation keeps the order (a % format cannot change it)

        def value(conversion: re.Match[str], values=values) -> str:
            v = next(values)
            return translate(v, gettext) if conversion.group(0)[-1] == "s" else v

        return _CONVERSION.sub(value, said)
    return text
