# The host tool in Spanish, Italian and German: the catalogues complete and
# in step with the code, the language from the environment or --lang, and
# what a program reads (JSON) the same in every language.
import json
import sys
from pathlib import Path

import pytest
from clirun import cli, one_line_error

from cribboard import store

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import catalogues  # noqa: E402

HAND = ("5H", "5S", "JD", "4C", "6H", "KH")
# A few words each language must show, and where.
SAID = {
    "es": {
        "help": "Uso:",
        "discard": "Qué cartas descartar a la caja",
        "head": "puesto",
        "error": "error",
        "crib": "di de quién es la caja",
    },
    "it": {
        "help": "Uso:",
        "discard": "Quali carte scartare nella cassa",
        "head": "posto",
        "error": "errore",
        "crib": "di' di chi è la cassa",
    },
    "de": {
        "help": "Aufruf:",
        "discard": "Welche Karten in die Krippe abwerfen",
        "head": "Platz",
        "error": "Fehler",
        "crib": "sag einmal, wessen Krippe es ist",
    },
}


def test_the_template_holds_exactly_the_messages_of_the_code():
    kept = {m.id for m in catalogues._read(catalogues.TEMPLATE) if m.id}
    now = {m.id for m in catalogues.template() if m.id}
    assert now == kept, "run `python tools/catalogues.py extract` and `update`, then translate: %s" % sorted(
        str(m)[:60] for m in now ^ kept
    )


@pytest.mark.parametrize("language", catalogues.LANGUAGES)
def test_every_message_is_translated_none_fuzzy_and_placeholders_kept(language):
    assert catalogues.problems(language) == []


def test_the_check_catches_a_missing_a_fuzzy_and_a_renamed_placeholder(tmp_path):
    from babel.messages.pofile import read_po

    path = catalogues.LOCALE / "es" / "LC_MESSAGES" / "cribboard.po"
    with path.open("rb") as f:
        broken = read_po(f, locale="es")
    broken.get("line %(number)d: %(problem)s").string = "línea %(numero)d: %(problem)s"
    broken.get("model: %s").flags.add("fuzzy")
    broken.get("net").string = ""
    out = tmp_path / "es.po"
    catalogues._write(broken, out)
    found = catalogues.problems("es", out)
    assert len(found) == 3
    assert any("placeholders" in p and "line %(number)d" in p for p in found)
    assert any(p.startswith("es: fuzzy: 'model: %s'") for p in found)
    assert any(p == "es: untranslated: 'net'" for p in found)


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_environment_chooses_the_language_of_help_tables_and_errors(language):
    words = SAID[language]
    env = {"LANG": "%s_%s.UTF-8" % (language, language.upper())}
    assert cli("--help", env=env).stdout.startswith(words["help"])
    assert words["discard"] in cli("discard", "--help", env=env).stdout
    table = cli("discard", "--dealer", *HAND, env=env).stdout
    assert table.split()[0] == words["head"]
    error = one_line_error(cli("discard", *HAND, env=env), 2, words["error"])
    assert error.startswith("cribboard: %s: %s" % (words["error"], words["crib"]))
    # What a program reads does not change with the language.
    assert (
        cli("discard", "--dealer", "--json", *HAND, env=env).stdout
        == cli("discard", "--dealer", "--json", *HAND, env={"LANG": "C"}).stdout
    )


def test_lang_overrides_the_environment_and_an_unknown_language_is_english():
    assert cli("--lang", "de", "--help", env={"LANG": "es_ES.UTF-8"}).stdout.startswith("Aufruf:")
    assert cli("--help", env={"LANG": "fr_FR.UTF-8"}).stdout.startswith("Usage:")
    assert cli("--help", env={"LANG": "es_ES.UTF-8", "LC_ALL": "it_IT.UTF-8"}).stdout.startswith("Uso:")
    assert "'fr' is not one of 'en', 'es', 'it', 'de'" in one_line_error(cli("--lang", "fr", "--help"), 2)
    english = cli("discard", "--dealer", "--top", "1", *HAND).stdout
    assert english.split()[:3] == ["rank", "throw", "keep"]


def test_language_comes_first_as_gnu_programs_read_it_unless_the_locale_is_c_itself():
    from cribboard.text.i18n import from_environment

    for env, language in (
        ({"LANGUAGE": "fr:de_AT:en", "LANG": "es_ES.UTF-8"}, "de"),
        ({"LANGUAGE": "en:de", "LC_ALL": "de_DE.UTF-8"}, "en"),
        ({"LANGUAGE": "fr:pt", "LC_ALL": "it_IT.UTF-8"}, "it"),  # none it speaks: the locale
        ({"LANGUAGE": "de", "LANG": "C.UTF-8"}, "de"),  # a container's locale: LANGUAGE is taken (glibc)
        ({"LANGUAGE": "de", "LANG": "C"}, "en"),
        ({"LANGUAGE": "de", "LC_ALL": "POSIX"}, "en"),
        ({"LANGUAGE": "de"}, "en"),
        ({"LANGUAGE": "", "LANG": "es_ES.UTF-8"}, "es"),
    ):
        assert from_environment(env) == language, env
    assert cli("--help", env={"LANGUAGE": "de:en", "LANG": "es_ES.UTF-8"}).stdout.startswith("Aufruf:")
    assert "LANGUAGE" in cli("--help").stdout


def test_a_sheets_error_names_the_contract_in_the_tables_language_and_the_double_as_typed(tmp_path):
    db = str(tmp_path / "club.sqlite3")
    for line, env, said in (
        ("damen 1 2 3 2", {"LANG": "de_DE.UTF-8"}, "Damen ergibt 8; es muss 4 sein"),
        ("damas 1 2 3 2", {"LANG": "es_ES.UTF-8"}, "damas suma 8"),
        ("queens 1 3 0 0 | 2x2", {}, "'2x2': the doubler and the doubled are two different"),
    ):
        done = cli("barbu", "sheet", "--names", "A,B,C,D", "--db", db, stdin=line + "\n", env=env)
        assert done.returncode == 2 and said in done.stderr and "queens" not in done.stderr, (line, done.stderr)
        assert "[1, 1" not in done.stderr


def test_the_barbu_sheet_reads_and_shows_the_tables_contract_names(tmp_path):
    lines = ["damas 1 3 0 0 | 2x1 3x1", "Dos Últimas 1 4 | 2x1 4x1", "dos-ultimas 1 4", "barbu 3", "queens 1 3 0 0"]
    sheet = tmp_path / "rubber.txt"
    sheet.write_text("\n".join(lines[:2] + lines[3:4]) + "\n")
    db = str(tmp_path / "club.sqlite3")
    done = cli("barbu", "sheet", str(sheet), "--names", "Ana,Bea,Cy,Di", "--db", db, env={"LANG": "es_ES.UTF-8"})
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()
    assert [r.split()[2] for r in rows[2:5]] == ["damas", "dos", "barbú"]
    assert "dos últimas" in rows[3]
    same = cli("barbu", "show", "1", "--db", db, "--json", env={"LANG": "es_ES.UTF-8"}).stdout
    assert [d["contract"] for d in json.loads(same)["deals"]] == ["queens", "last2", "barbu"]  # stored as the code
    assert "Damen" in cli("barbu", "show", "1", "--db", db, env={"LANG": "de_DE.UTF-8"}).stdout
    again = tmp_path / "again.txt"  # the accents and the hyphen need not be typed; English always works
    again.write_text("\n".join([lines[2], lines[4]]) + "\n")
    done = cli(
        "barbu", "sheet", str(again), "--names", "Ana,Bea,Cy,Di", "--db", db, "--json", env={"LANG": "es_ES.UTF-8"}
    )
    assert [d["contract"] for d in json.loads(done.stdout)["deals"]] == ["last2", "queens"]
    wrong = one_line_error(
        cli(
            "barbu",
            "sheet",
            "--names",
            "Ana,Bea,Cy,Di",
            "--db",
            db,
            stdin="damen 1 3 0 0\n",
            env={"LANG": "es_ES.UTF-8"},
        ),
        2,
    )
    assert "contrato desconocido 'damen' (barbú, corazones, damas, bazas, dos últimas, triunfo, dominó)" in wrong


def test_the_sheets_speak_the_tables_language_and_keep_their_data_neutral(tmp_path):
    db = str(tmp_path / "club.sqlite3")
    store.connect(db).close()  # the club's database, made before: nothing to say about making it
    es = {"LANG": "es_ES.UTF-8"}
    done = cli(
        "barbu",
        "sheet",
        "--names",
        "Ana,Bea,Cy,Di",
        "--db",
        db,
        env=es,
        stdin="damas 1 3 0 0 | 2x1 3x1!\nbazas 4 3 3 3\nfix 1 damas 1 3 0 0 | 2x1\nfoo\n",
    )
    said = done.stderr.splitlines()
    # From a pipe, stderr has what needs a look (the correction, the stop), never the routine lines.
    assert said[0] == (
        "corregido: mano 1, damas de Ana; Bea dobló a Ana (era: mano 1, damas de Ana; Bea dobló a "
        "Ana, Cy dobló a Ana (redoblado))"
    )
    assert not [line for line in said if line.lstrip().startswith(("puntos:", "ronda de", "comprobación:"))]
    assert said[-1].startswith("cribboard: error: línea 4: contrato desconocido 'foo'")
    assert "continúa con `cribboard barbu sheet --resume 1 --db " in said[-1]
    lines = "45 12\n30 40\n20 20\n10 9\n12 12\n0 2\n"
    de = cli("piquet", "sheet", "--names", "Ann,Bob", "--db", db, env={"LANG": "de_DE.UTF-8"}, stdin=lines)
    assert de.stdout.splitlines()[0].split()[:2] == ["#", "Geber"]
    assert "Ann gewinnt; Bob bleibt unter dem Rubikon (95, unter 100): 100 + 117 + 95 = 312 Punkte" in de.stdout
    assert (
        cli("piquet", "show", "1", "--db", db, "--json", env={"LANG": "it_IT.UTF-8"}).stdout
        == cli("piquet", "show", "1", "--db", db, "--json").stdout
    )  # JSON: the same words in every language
    assert (
        cli("piquet", "list", "--db", db, "--json", env={"LANG": "es_ES.UTF-8"}).stdout
        == cli("piquet", "list", "--db", db, "--json").stdout
    )


def test_every_column_a_command_prints_has_a_title_and_tables_speak_the_language(tmp_path):
    import ast

    from cribboard.cli.columns import TITLES

    used = set()
    for path in (ROOT / "host" / "cribboard" / "cli").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) in ("emit", "print_table")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.List)
            ):
                used |= {e.value for e in node.args[1].elts if isinstance(e, ast.Constant)}
    assert len(used) > 40 and used <= set(TITLES), sorted(used - set(TITLES))
    db = str(tmp_path / "club.sqlite3")
    cli("piquet", "sheet", "--names", "Ann,Bob", "--db", db, stdin="45 12\n")
    header = cli("piquet", "list", "--db", db, env={"LANG": "es_ES.UTF-8"}).stdout.splitlines()[1]
    assert [w.strip() for w in header.strip("┃ ").split("┃")] == [
        "id",
        "manos",
        "terminada",
        "jugadores",
        "resultado",
        "actualizada",
    ]
    assert json.loads(cli("piquet", "list", "--db", db, "--json", env={"LANG": "es_ES.UTF-8"}).stdout)[0]["deals"] == 1


def test_a_browsers_accept_language_picks_the_page_language():
    from cribboard.text.i18n import best_language, page_messages

    assert best_language("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert best_language("fr-FR,fr;q=0.9,it;q=0.5") == "it"
    assert best_language("en-US,es;q=0.9") == "en"
    assert best_language("fr-FR") == best_language("*") == best_language("") == "en"
    assert best_language("es;q=zz, de;q=0.3") == "de"  # a broken weight counts for nothing
    page = (ROOT / "host" / "cribboard" / "web" / "sim.html").read_text()
    words = page_messages(page)
    kept = {m.id for m in catalogues._read(catalogues.TEMPLATE) if m.id}
    assert len(words) > 30
    assert set(words) <= kept


# One word per thing in each language, as a club's players say it: the
# electronic board beside the wooden table (tablero/mesa, plancia/tavolo,
# Brett/Tisch), a match of several games (encuentro, incontro, Match: German
# takes the sports word as Duden has it), "best of" in the language's own
# words. A word a translator used beside the chosen one is listed as a variant;
# the dev board a firmware is flashed onto keeps its trade name (MicroPython-Board).
GLOSSARY_VARIANTS = {
    "es": [r"\bpartidos?\b"],
    "it": [r"\btavol[ae]\b", r"\btavolett[ae]\b", r"\bTAVOLA\b"],
    "de": [r"(?<!Python-)\bBoards?\b", r"\bBOARD\b", r"\b[Bb]est[ -]of\b", r"beste aus"],
}


@pytest.mark.parametrize("language", sorted(GLOSSARY_VARIANTS))
def test_each_thing_has_one_word_in_each_language(language):
    import re

    from babel.messages.pofile import read_po

    with (catalogues.LOCALE / language / "LC_MESSAGES" / "cribboard.po").open("rb") as f:
        messages = [m for m in read_po(f) if m.id]
    said = [(m.id, s) for m in messages for s in (m.string if isinstance(m.string, tuple) else (m.string,))]
    assert len(said) > 500, "the %s catalogue was read whole" % language
    variants = [(v, msgid) for v in GLOSSARY_VARIANTS[language] for msgid, s in said if re.search(v, s)]
    assert variants == [], "%s says a thing in a word beside its glossary's: %s" % (language, variants[:5])
