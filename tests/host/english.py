# Finding English left in a translated screen: a word counts as English when
# the catalogue's English messages use it as prose and the language's own
# messages never do. Quoted text, options, placeholders, anything with a
# digit, paths and names in capitals (P1, UNDO, DB) are codes, not prose.
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import catalogues

_NOT_PROSE = re.compile(
    r"'[^']*'|\"[^\"]*\"|`[^`]*`|\{[^}]*\}|%\([a-z_]+\)\w|--?[\w-]+|\S*\d\S*|\S+/\S*"
    r"|\b[A-Z][A-Z_]+\b"
)
PROPER_NAMES = {"cribboard", "cribbage"}  # the tool's and the game's names, the same in every language


def ids(message):
    return message if isinstance(message, tuple) else (message,)


def _words(text):
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ]{2,}", _NOT_PROSE.sub(" ", text))}


def vocabulary(language):
    """English words of the template's messages that the language's own messages never use as prose."""
    template = catalogues._read(catalogues.TEMPLATE)
    own = catalogues._read(catalogues.LOCALE / language / "LC_MESSAGES" / "cribboard.po", language)
    english, theirs = set(), set()
    for m in template:
        for text in ids(m.id):
            english |= _words(text)
    for m in own:
        for text in ids(m.string):
            theirs |= _words(text or "")
    return english - theirs - PROPER_NAMES


def english_runs(text, words, least=4):
    """Runs of at least `least` English words in a row (commas allowed between them), in the prose of text."""
    runs, run = [], []
    for token in re.findall(r"[A-Za-zÀ-ÿ]+|[^\sA-Za-zÀ-ÿ]+", _NOT_PROSE.sub(" | ", text)):
        if token.lower() in words and len(token) > 1:
            run.append(token)
            continue
        if token == "," and run:
            continue
        if len(run) >= least:
            runs.append(" ".join(run))
        run = []
    if len(run) >= least:
        runs.append(" ".join(run))
    return runs
