# Click's own words (Usage:, its errors, its help options) in es, it and de:
# every message the installed click's modules say is in the catalogue,
# click's gettext is rebound (no LANGUAGE set for the whole process), and
# no command's help or parameter error leaves an English sentence.
import os

import click
import pytest
from english import catalogues, english_runs, ids, vocabulary

from cribboard.cli import cli as root
from cribboard.text import i18n

LANGUAGES = ("es", "it", "de")


@pytest.fixture
def speaking():
    yield i18n.use
    i18n.use("en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_installed_click_is_translated(language):
    own = catalogues._read(catalogues.LOCALE / language / "LC_MESSAGES" / "cribboard.po", language)
    found = list(catalogues.click_messages())
    assert len(found) > 60
    for _line, message, where in found:
        entry = own.get(message)
        assert entry is not None and all(ids(entry.string)) and not entry.fuzzy, (language, where, message)


def test_the_language_is_ours_not_the_processs(speaking, monkeypatch):
    monkeypatch.delenv("LANGUAGE", raising=False)
    speaking("de")
    assert "LANGUAGE" not in os.environ  # a child process (the simulated board, git, mpremote) gets no language
    from click import formatting, types

    assert formatting._("Usage:") == "Aufruf:"  # pyright: ignore[reportAttributeAccessIssue]
    assert (
        types.ngettext("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", 2)
        == "{value!r} ist keiner der Werte {choices}."
    )  # pyright: ignore[reportAttributeAccessIssue]
    speaking("en")
    assert formatting._("Usage:") == "Usage:"  # pyright: ignore[reportAttributeAccessIssue]


def _commands(group, path=()):
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield path + (name,), command, True
            yield from _commands(command, path + (name,))
        else:
            yield path + (name,), command, False


def _bad_values(command, tmp_path):
    """(args, what) that click refuses while it parses: a bad value for each typed option, a missing argument."""
    needed = [p for p in command.params if isinstance(p, click.Argument) and p.required]
    filler = []
    for p in needed:
        filler += ["1"] if isinstance(p.type, click.types.IntParamType) else [str(tmp_path)]
    if needed:
        yield [], "missing argument"
    yield filler + ["--no-such-option"], "unknown option"
    for p in command.params:
        if not isinstance(p, click.Option) or p.is_flag or not p.opts[-1].startswith("--"):
            continue
        name = p.opts[-1]
        if isinstance(p.type, click.Choice):
            yield filler + [name, "xml"], "choice"
        elif isinstance(p.type, click.types.IntParamType):
            yield filler + [name, "many"], "integer"
            if isinstance(p.type, click.IntRange) and p.type.max is not None:
                yield filler + [name, str(p.type.max + 1)], "range"
        elif isinstance(p.type, click.types.BoolParamType):
            yield filler + [name, "maybe"], "boolean"
        elif isinstance(p.type, click.Path) and not p.type.file_okay:
            yield filler + [name, str(tmp_path / "a-file")], "a file, not a folder"
        if p.nargs == 1 and not p._flag_needs_value:  # an option whose value may be left out (flash --drive) has none
            yield filler + [name], "no value"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_command_says_an_english_sentence(language, speaking, tmp_path, monkeypatch):
    (tmp_path / "a-file").write_text("x")
    words = vocabulary(language)
    found = list(_commands(root))
    assert len(found) > 30
    said = []
    speaking("en")
    english = root.get_help(click.Context(root, info_name="cribboard"))
    assert english_runs(english, words), "the check finds English where there is some"
    speaking(language)
    said.append(("cribboard --help", root.get_help(click.Context(root, info_name="cribboard"))))
    errors = 0
    for path, command, is_group in found:
        said.append((" ".join(path) + " --help", command.get_help(click.Context(command, info_name=" ".join(path)))))
        if is_group:
            continue
        monkeypatch.setattr(command, "callback", lambda **kw: pytest.fail("the command ran"))
        for args, what in _bad_values(command, tmp_path):
            with pytest.raises(click.ClickException) as e:
                root.main(args=list(path) + args, prog_name="cribboard", standalone_mode=False)
            said.append((" ".join(path + tuple(args)) + " (%s)" % what, e.value.format_message()))
            errors += 1
    assert errors > 100
    for where, text in said:
        assert not english_runs(text, words), (language, where, english_runs(text, words), text)


def test_the_command_line_says_clicks_errors_in_the_language():
    from clirun import cli, one_line_error

    done = cli("--lang", "de", "export", "--format", "xml")
    assert (
        one_line_error(done, 2, "Fehler")
        == "cribboard: Fehler: Ungültiger Wert für '--format': 'xml' ist keiner der Werte 'csv', 'json'."
    )
    done = cli("export", "--format", "xml", env={"LANG": "it_IT.UTF-8"})
    assert (
        one_line_error(done, 2, "errore")
        == "cribboard: errore: Valore non valido per '--format': 'xml' non è nessuno tra 'csv', 'json'."
    )
    done = cli("--lang", "es", "night", "result", "1")  # an argument's name, as the help shows it
    assert one_line_error(done, 2, "error") == "cribboard: error: Falta el argumento 'PRIMERO'."
    done = cli("--lang", "it", "night", "result", "x")
    assert one_line_error(done, 2, "errore").startswith("cribboard: errore: Valore non valido per 'TURNO': 'x'")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_placeholder_in_every_help_is_in_the_language(language, speaking):
    """[OPTIONS], an argument's name (FIRST_SCORE, ENTRANTS...), a value's type (INTEGER RANGE, TEXT): each
    word is one the catalogue translates, and no help shows it in English where the language has its own."""
    import re

    from cribboard.cli.localized import PLACEHOLDER_WORDS

    word = re.compile(r"[A-Z][A-Z_]+(?: RANGE)?")
    kept_as_is = {"EY"}  # piquet's tricks, the elder's and the younger's letters: what is typed
    shown = {}
    speaking("en")
    for path, command, _is_group in _commands(root):
        ctx = click.Context(command, info_name=" ".join(path))
        for p in command.params:
            if not getattr(p, "is_flag", False) and not getattr(p, "count", False):
                for w in word.findall(p.make_metavar(ctx)):
                    assert w in PLACEHOLDER_WORDS or w in kept_as_is, (path, p.name, w)
                    shown.setdefault(w, path)
    speaking(language)
    own = {w for w in PLACEHOLDER_WORDS if i18n._(w) != w}
    assert len(own) > 20  # (the rest are the same word in the language: ID, URL, HOST...)
    for path, command, _is_group in [((), root, True), *_commands(root)]:
        text = command.get_help(click.Context(command, info_name=" ".join(("cribboard",) + path)))
        usage = text.split("\n\n")[0]
        options = [line.split("  ")[1] for line in text.splitlines() if line.startswith("  -") and "  " in line[2:]]
        for w in own:
            assert not re.search(r"(?<![\w])%s(?![\w])" % re.escape(w), usage + "\n" + "\n".join(options)), (
                language,
                path,
                w,
                usage,
            )
    assert "[OPTIONS]" not in root.get_help(click.Context(root, info_name="cribboard"))
