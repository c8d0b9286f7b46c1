# The rest of the host tool in Spanish, Italian and German: the scoring
# core's errors on the command line (test_said.py has the rest), the
# calculators' kinds of points, piquet's declarations in the table's terms,
# and the board commands' progress and errors. JSON stays the same in every
# language.
import json
from pathlib import Path

import pytest
from clirun import cli, one_line_error

from cribboard import store
from cribboard.text import i18n

ROOT = Path(__file__).resolve().parents[2]
ERROR = {"es": "error", "it": "errore", "de": "Fehler"}
STRONG = "AS KS QS JS TS AH KH QH AD KD AC KC"
WEAK = "9S 8S 7S JH TH 9H 8H QD JD TD QC JC"


@pytest.fixture
def speaking():
    """i18n.use for one test, English again after it."""
    yield i18n.use
    i18n.use("en")


def test_a_core_error_on_the_command_line_is_in_the_readers_language():
    done = cli("score", "5H", "5D", "5S", "JC", "ZZ", env={"LANG": "es_ES.UTF-8"})
    assert (
        one_line_error(done, 2, "error")
        == "cribboard: error: carta desconocida 'ZZ' (escribe valor y luego palo: 5H, TD, 10D, QS, 5♥)"
    )
    done = cli("score", stdin="5H 5D 5S JC 5H\n", env={"LANG": "de_DE.UTF-8"})
    assert done.returncode == 2
    assert "Zeile 1: doppelte Karte" in done.stderr


def test_the_kinds_of_points_are_the_tables_words_and_json_is_english():
    assert (
        cli("score", "-v", "5H", "5D", "5S", "JC", "5C", env={"LANG": "it_IT.UTF-8"}).stdout.strip()
        == "quindici 16, coppie 12, nobs 1 = 29"
    )
    lines = cli("peg", "5H", "TD", "5S", "5C", "go", env={"LANG": "es_ES.UTF-8"}).stdout.splitlines()
    assert lines[1].endswith("(quince 2)")
    assert lines[3].endswith("(pareja 2)")
    runs = cli("peg", "3H", "4D", "5S", env={"LANG": "de_DE.UTF-8"}).stdout
    assert "(Folge von 3)" in runs
    as_json = {
        lang: cli("peg", "--json", "5H", "TD", "5S", "5C", "go", env={"LANG": lang}).stdout
        for lang in ("C.UTF-8", "es_ES.UTF-8", "de_DE.UTF-8")
    }
    assert len(set(as_json.values())) == 1
    assert json.loads(as_json["C.UTF-8"])[1]["what"] == "fifteen 2"


@pytest.mark.parametrize(
    "language, words",
    [
        (
            "es",
            [
                "punto",
                "secuencia",
                "conjunto",
                "repique",
                "capote",
                "mano quinta con as en cabeza",
                "mano catorce de ases",
                "buena: mano anota 18",
            ],
        ),
        ("it", ["punto", "sequenza", "ripicco", "cappotto", "primo quinta con asso in testa"]),
        ("de", ["Punkt", "Sequenz", "Repik", "Capot", "Vorhand Quint bis Ass", "Vorhand Quatorze der Asse"]),
    ],
)
def test_piquet_declarations_use_the_tables_terms(language, words):
    args = ("piquet", "deal", "--elder", STRONG, "--younger", WEAK, "--tricks", "E" * 12)
    text = cli(*args, env={"LANG": language}).stdout
    for word in words:
        assert word in text, (word, text)
    assert cli(*args, "--json", env={"LANG": language}).stdout == cli(*args, "--json").stdout
    bad = cli(
        "piquet", "deal", "--elder", STRONG + " ZZ", "--younger", WEAK, "--tricks", "E" * 12, env={"LANG": language}
    )
    assert "ZZ" in one_line_error(bad, 2, ERROR[language])
    assert "unknown card" not in bad.stderr


def test_the_board_commands_speak_the_language(tmp_path):
    store.connect(str(tmp_path / "c.db")).close()  # the club's database (sync makes none without a board)
    done = cli("sync", "--port", str(tmp_path / "ttyNONE"), "--db", str(tmp_path / "c.db"), env={"LANG": "es_ES.UTF-8"})
    assert one_line_error(done, 1, "error").startswith("cribboard: error: no se puede abrir ")
    done = cli(
        "players",
        "rename",
        "Ann",
        "--track",
        "1",
        "--board",
        "zz",
        "--db",
        str(tmp_path / "c.db"),
        env={"LANG": "it_IT.UTF-8"},
    )
    assert one_line_error(done, 2, "errore") == "cribboard: errore: nessuna plancia corrisponde a 'zz'"
    done = cli("flash", "--drive", str(tmp_path), env={"LANG": "de_DE.UTF-8"})
    assert "ist kein CircuitPython-Laufwerk" in one_line_error(done, 2, "Fehler")
    done = cli("plot", "7", "-o", str(tmp_path / "p.png"), "--db", str(tmp_path / "c.db"), env={"LANG": "es_ES.UTF-8"})
    assert "no hay partida 7 en la base de datos" in one_line_error(done, 2, "error")


def test_the_pages_discard_errors_come_in_english_and_in_the_readers_language():
    from cribboard.web import pages

    reply = pages._discard_error("cards=5H+5S+JD+4C+6H&players=2&crib=dealer&lang=de", ValueError("ignored"))
    assert reply["said"]["error"] == "2 Spieler bekommen 6 Karten: gib 6 an, nicht 5"
    with pytest.raises(ValueError, match="2 players are dealt 6 cards"):
        pages._discard("cards=5H+5S+JD+4C+6H&players=2&crib=dealer&lang=de")
    reply = pages._discard_error("cards=5H+5H+JD+4C+6H+KH&players=2&crib=dealer&lang=es", ValueError("x"))
    assert reply["said"]["error"] == "carta repetida 5H"
    assert "said" not in pages._discard_error("cards=5H&players=2&crib=dealer", ValueError("x"))


def test_a_makers_layout_check_speaks_the_language_and_its_json_does_not(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"runs": 3}')
    done = cli("hardware", "check", str(bad), env={"LANG": "es_ES.UTF-8"})
    assert one_line_error(done, 2, "error").endswith("disposición unnamed: 'tracks' debe ser 2 o 3, no None")
    good = cli("hardware", "check", "hardware/layouts/2-track.json", env={"LANG": "de_DE.UTF-8"}, cwd=ROOT)
    assert "Layout 2-track ist in Ordnung: 2 Bahnen" in good.stdout
    as_json = [
        cli(
            "hardware", "check", "--json", str(bad), "hardware/layouts/2-track.json", env={"LANG": lang}, cwd=ROOT
        ).stdout
        for lang in ("C.UTF-8", "es_ES.UTF-8", "it_IT.UTF-8")
    ]
    assert len(set(as_json)) == 1
    assert "'tracks' must be 2 or 3" in as_json[0]


def _commands(group, path=()):
    for name, command in sorted(group.commands.items()):
        yield path + (name,), command
        if hasattr(command, "commands"):
            yield from _commands(command, path + (name,))


def test_every_commands_help_is_shown_in_the_language(speaking):
    import click

    from cribboard.cli import cli as root

    found = list(_commands(root))
    assert len(found) > 25
    for path, command in found:
        ctx = click.Context(command, info_name=" ".join(path))
        speaking("en")
        english = command.get_help(ctx)
        speaking("de")
        german = command.get_help(ctx)
        assert "Aufruf:" in german, path
        first = (command.help or "").strip().splitlines()[0][:40]  # short of click's wrapping
        assert first in english and first not in german, (path, first)


def test_the_german_words_call_the_spread_one_thing_as_the_standings_do():
    from pathlib import Path

    from babel.messages.pofile import read_po

    path = Path(__file__).resolve().parents[2] / "host/cribboard/locale/de/LC_MESSAGES/cribboard.po"
    with path.open("rb") as f:
        catalog = read_po(f)
    said = [m.string for m in catalog if m.string]
    strings = [s for x in said for s in (x if isinstance(x, tuple) else (x,))]
    assert {s for s in strings if "Spread" in s} == set(), "the standings' column is Differenz"
    assert any(s == "Differenz" for s in strings)
