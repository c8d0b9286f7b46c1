# The host tool's language. Messages are English in the code and go through
# gettext: catalogues per language in cribboard/locale (the .po files kept in
# the repository, the .mo files compiled from them by the package's build
# step). The language is --lang, else LANGUAGE's first that cribboard speaks
# (unless the locale is C), else the first of LC_ALL, LC_MESSAGES and LANG
# that is set (as GNU gettext reads them), else English. Click's own
# words (Usage, Options, its errors) come through the same catalogue: its
# modules' gettext functions are rebound to this module's.
#
# What a program reads never changes with the language: JSON keys and
# values, the database, exit statuses.
import gettext
import os
import re
import sys
from importlib import resources

DOMAIN = "cribboard"
LANGUAGES = ("en", "es", "it", "de")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def locale_dir() -> str:
    return str(resources.files("cribboard") / "locale")


def from_environment(environ: dict[str, str] | None = None) -> str:
    """The language the environment asks for (one of LANGUAGES; English if
    it asks for none of them): es_ES.UTF-8 -> es, C -> en. As GNU gettext
    reads it: LANGUAGE, a list by preference (de_AT:de:en), comes first, its
    first language cribboard speaks, unless the locale is C or POSIX itself
    (glibc's rule: C.UTF-8, a container's usual locale, takes LANGUAGE)."""
    env = os.environ if environ is None else environ
    locale_value = next((env[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), "")
    if locale_value not in ("", "C", "POSIX"):
        for wanted in env.get("LANGUAGE", "").split(":"):
            if wanted and (wanted.split("_")[0].lower() in LANGUAGES):
                return language_of(wanted)
    return language_of(locale_value) if locale_value else "en"


def language_of(value: str) -> str:
    code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else "en"


def use(language: str) -> None:
    """Speak this language from now on (ValueError if it is not one of LANGUAGES)."""
    global _translation, _language
    if language not in LANGUAGES:
        raise ValueError("%r is not a language of cribboard (%s)" % (language, ", ".join(LANGUAGES)))
    where = locale_dir()
    _translation = (
        gettext.translation(DOMAIN, where, languages=[language], fallback=True)
        if language != "en"
        else gettext.NullTranslations()
    )
    _language = language
    _speak_for_click()


# Click's modules that say something to a user, and the names they import
# the stdlib's gettext functions under (`from gettext import gettext as _`).
CLICK_MODULES = (
    "core",
    "decorators",
    "exceptions",
    "formatting",
    "parser",
    "shell_completion",
    "termui",
    "types",
    "utils",
    "_termui_impl",
)


def _speak_for_click() -> None:
    """Click's own words (Usage:, its errors) through this module's catalogue:
    its modules' _ and ngettext rebound to ours, not the process's language
    set in the environment, which every child process would inherit."""
    import click  # noqa: F401  (its package loads the modules that say most)

    for name in CLICK_MODULES:
        module = sys.modules.get("click." + name)  # a module click loads only for one job (a pager) is left alone
        if module is None:
            continue
        if hasattr(module, "_"):
            module.__dict__["_"] = _
        if hasattr(module, "ngettext"):
            module.__dict__["ngettext"] = ngettext


def language() -> str:
    return _language


def _(message: str) -> str:
    """The message in the current language."""
    return _translation.gettext(message) if message else message


def english(message: str) -> str:
    """The message as it is: pass it where a function takes a translating _
    and what it makes is for a program (JSON), not a reader."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is defined; _() translates it where it is shown."""
    return message


def translation(language: str) -> gettext.NullTranslations:
    """The catalogue of one language, whatever the command line speaks (a
    page asks in the reader's language)."""
    if language not in LANGUAGES or language == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, locale_dir(), languages=[language], fallback=True)


def best_language(accept_language: str) -> str:
    """The best of LANGUAGES for an HTTP Accept-Language header (English if none fits)."""
    best, weight = "en", 0.0
    for part in accept_language.split(","):
        name, _sep, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = language_of(name.strip()) if name.strip() not in ("", "*") else "en"
        if code in LANGUAGES and q > weight and (code != "en" or name.strip().lower().startswith("en")):
            best, weight = code, q
    return best


# What a page marks for translation: t("..."), N_("...") in its script, data-t="..." on its elements.
_PAGE_MESSAGE = re.compile(r'\b(?:t|N_)\("([^"\\]*)"|\bdata-t="([^"]*)"')


def page_messages(html: str) -> list[str]:
    """The messages a page marks, in order, once each."""
    out: list[str] = []
    for m in _PAGE_MESSAGE.finditer(html):
        message = m.group(1) if m.group(1) is not None else m.group(2)
        if message and message not in out:
            out.append(message)
    return out
