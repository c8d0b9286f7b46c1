# The message catalogues, kept the gettext way with Babel:
#   python tools/catalogues.py extract   the template (host/cribboard/locale/cribboard.pot) from the code
#   python tools/catalogues.py update    merge the template into each language's .po (translators fill them)
#   python tools/catalogues.py check     every message translated, none fuzzy, placeholders kept (exit 1 if not)
#   python tools/catalogues.py compile   the .mo files into the checkout (the build step does the wheel's)
# Messages are what the code passes to _(), N_() and ngettext(), and, for the
# command line, the help of every click command, group and option (the
# docstring, help=, epilog=): click shows them through cribboard.cli.localized's
# translating command classes. Click's own words are extracted from the
# installed click's modules (cribboard.text.i18n rebinds their gettext); the
# errors of the scoring core and the layout checks come from
# cribcore.messages (cribboard.text.error_words translates them).
import ast
import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "host" / "cribboard"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "cribboard.pot"
LANGUAGES = ("es", "it", "de")
SKIP = ("mp", "cp", "locale")  # firmware copies and the catalogues themselves

_PLACEHOLDER = re.compile(r"%(?:\([a-z_]+\))?[-#0 +]*\d*(?:\.\d+)?[sdrfiX%]|\{[a-z_]*(?:![rs])?(?::[^}]*)?\}")


def _literal(node):
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def _is_click_decorator(node):
    """@X.command(...), @X.group(...), @click.command, @click.group (with or without the call)."""
    target = node.func if isinstance(node, ast.Call) else node
    return isinstance(target, ast.Attribute) and target.attr in ("command", "group")


def extract_click(fileobj, keywords, comment_tags, options):
    """Babel extraction method: the help click shows, for a command line
    built with click's decorators."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(_is_click_decorator(d) for d in node.decorator_list):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.lineno, None, doc.split("\f")[0].rstrip(), []
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg in ("help", "epilog", "short_help", "show_default") and _literal(kw.value):
                    yield kw.value.lineno, None, _literal(kw.value), []
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("_", "N_") and node.args and _literal(node.args[0]):
                yield node.lineno, name, _literal(node.args[0]), []
            if name == "ngettext" and len(node.args) >= 2 and _literal(node.args[0]) and _literal(node.args[1]):
                yield node.lineno, name, (_literal(node.args[0]), _literal(node.args[1])), []
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "ENVIRONMENT"
            and _literal(node.value)
        ):
            yield node.lineno, None, _literal(node.value), []


def template():
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract

    catalog = Catalog(project="cribboard", msgid_bugs_address="", charset="utf-8")
    for path in sorted(PACKAGE.rglob("*.py")):
        if set(path.relative_to(PACKAGE).parts[:-1]) & set(SKIP):
            continue
        with path.open("rb") as f:
            for lineno, message, _, _ in extract(extract_click, f):
                catalog.add(message, locations=[(str(path.relative_to(ROOT)), lineno)])
    from cribboard.text.i18n import page_messages
    from cribcore.messages import MESSAGES

    # The firmware's shared code's errors: English by code (it runs on the board too);
    # cribboard.text.error_words translates.
    for code, message in sorted(MESSAGES.items()):
        catalog.add(message, locations=[("firmware/lib/cribcore/messages.py", code)])

    for page in (PACKAGE / "web" / "sim.html", PACKAGE / "web" / "night.html", PACKAGE / "web" / "me.html"):
        for message in page_messages(page.read_text(encoding="utf-8")):
            catalog.add(message, locations=[(str(page.relative_to(ROOT)), 0)])
    for lineno, message, where in click_messages():
        catalog.add(message, locations=[(where, lineno)])
    return catalog


def click_messages():
    """(line, message, click/module.py) of every message click's modules that
    talk to a user pass to gettext, as the installed click has them."""
    from babel.messages.extract import extract_from_file

    from cribboard.text.i18n import CLICK_MODULES

    folder = Path(__import__("click").__file__).parent
    for name in CLICK_MODULES:
        for lineno, message, _comments, _context in extract_from_file("python", str(folder / (name + ".py"))):
            yield lineno, message, "click/%s.py" % name


def _write(catalog, path):
    from babel.messages.pofile import write_po

    buf = io.BytesIO()
    write_po(buf, catalog, width=0, no_location=True, omit_header=False, sort_output=True, ignore_obsolete=True)
    text = re.sub(rb'"POT-Creation-Date: [^"]*"\n', b"", buf.getvalue())  # no date: a rerun changes nothing
    text = re.sub(rb'"PO-Revision-Date: [^"]*"\n', b"", text)
    path.write_bytes(text)


def _read(path, locale=None):
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=locale)


def placeholders(text):
    return sorted(_PLACEHOLDER.findall(text))


def problems(language, path=None):
    """What is missing or wrong in a language's catalogue (its .po, or the
    one at path) against the template."""
    want = _read(TEMPLATE)
    path = path or LOCALE / language / "LC_MESSAGES" / "cribboard.po"
    if not path.exists():
        return ["%s: no catalogue" % language]
    have = _read(path, language)
    out = []
    for m in want:
        if not m.id:
            continue
        got = have.get(m.id)
        shown = (m.id if isinstance(m.id, str) else m.id[0])[:60]
        if got is None or not got.string or (isinstance(got.string, tuple) and not all(got.string)):
            out.append("%s: untranslated: %r" % (language, shown))
        elif got.fuzzy:
            out.append("%s: fuzzy: %r" % (language, shown))
        else:
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strings = got.string if isinstance(got.string, tuple) else (got.string,)
            for s in strings:
                if placeholders(s) != placeholders(ids[-1]) and placeholders(s) != placeholders(ids[0]):
                    out.append(
                        "%s: placeholders %s in %r, not %s" % (language, placeholders(s), shown, placeholders(ids[0]))
                    )
    return out


def main(argv):
    what = argv[1] if len(argv) > 1 else ""
    if what == "extract":
        _write(template(), TEMPLATE)
    elif what == "update":
        want = _read(TEMPLATE)
        for language in LANGUAGES:
            path = LOCALE / language / "LC_MESSAGES" / "cribboard.po"
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists():
                catalog = _read(path, language)
            else:
                from babel.messages.catalog import Catalog

                catalog = Catalog(locale=language, project="cribboard", charset="utf-8")
            catalog.update(want, no_fuzzy_matching=True)
            _write(catalog, path)
    elif what == "check":
        found = [p for language in LANGUAGES for p in problems(language)]
        for p in found:
            print(p)
        return 1 if found else 0
    elif what == "compile":
        sys.path.insert(0, str(ROOT))
        from setup import compile_catalogues

        compile_catalogues(LOCALE, LOCALE)
    else:
        print(__doc__ if __doc__ else "usage: catalogues.py extract|update|check|compile")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
