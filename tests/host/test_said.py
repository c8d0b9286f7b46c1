# The core's errors as data (cribcore.CoreError, cribcore.messages) and the
# host saying them (cribboard.text.error_words): every code raised is in the table with
# the values it names, every message is said in es, it and de with its
# values, and a value that is a word of the game or a phrase is said in the
# same language.
import ast
import re
from pathlib import Path

import pytest

from cribboard.text import i18n
from cribboard.text.error_words import WORDS, said
from cribcore import CoreError, names
from cribcore.messages import MESSAGES, english
from cribcore.messages import names as placeholders
from cribrules import barbu, cards

ROOT = Path(__file__).resolve().parents[2]
# Where CoreErrors are raised: the core (the board's and its host side), and the board files' checks.
SOURCES = (
    sorted((ROOT / "firmware/lib/cribcore").glob("*.py"))
    + sorted((ROOT / "firmware/lib/cribrules").glob("*.py"))
    + [ROOT / "firmware/lib/cribapp" / name for name in ("hostapi.py",)]
)
LANGUAGES = ("es", "it", "de")
_CONVERSION = re.compile(r"%\(([a-z_]+)\)[-#0 +]*\d*([srdX])")


@pytest.fixture
def speaking():
    yield i18n.use
    i18n.use("en")


def _codes(tree):
    """A module's hidden constants: name -> value."""
    out = {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "id", None) == "const"
            and isinstance(node.value.args[0], ast.Constant)
        ):
            out[node.targets[0].id] = node.value.args[0].value  # type: ignore[attr-defined]
    return out


def _made(path):
    """(code, number of values or None if not a literal, line) of every CoreError the module makes."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    codes = _codes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "CoreError":
            first = node.args[0]
            assert isinstance(first, ast.Name) and first.id in codes, (path.name, node.lineno)
            values = node.args[1] if len(node.args) > 1 else ast.Tuple(elts=[])
            yield codes[first.id], len(values.elts) if isinstance(values, ast.Tuple) else None, node.lineno


def test_every_error_the_core_makes_is_a_code_of_the_table_with_its_values():
    used = set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        assert "raise ValueError(" not in text, path.name  # an English sentence the host cannot translate
        for code, count, line in _made(path):
            assert code in MESSAGES, (path.name, line, code)
            assert count is None or count == len(placeholders(MESSAGES[code])), (path.name, line, MESSAGES[code])
            used.add(code)
    assert used == set(MESSAGES), sorted(set(MESSAGES) - used)  # no sentence nobody says


def test_every_placeholder_is_named_and_known_to_the_host():
    for code, template in MESSAGES.items():
        assert re.sub(r"%\([a-z_]+\)[-#0 +]*\d*[srdX]", "", template).count("%") == 0, code  # none positional
        for name, conversion in _CONVERSION.findall(template):
            if name in WORDS:
                assert conversion == "s", (code, name)  # said as a word, not as a repr


def _sample(name, conversion, k):
    """A value for a placeholder: a word of the game where it takes one, a phrase for a phrase, else a marker."""
    if name == "contract":
        return "queens"
    if name == "who":
        return "elder"
    if name in ("problem", "error", "part"):
        return CoreError(1119, (40 + k,))  # "hole %(hole)d"
    return 70 + k if conversion in "dX" else "x%d" % k


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_said_in_the_language_with_its_values(language, speaking):
    speaking(language)
    translation = i18n.translation(language)
    for code, template in MESSAGES.items():
        found = _CONVERSION.findall(template)
        kinds = dict(found)
        values = tuple(_sample(name, kinds[name], k) for k, name in enumerate(placeholders(template)))
        error = CoreError(code, values)
        text = said(error)
        assert translation.gettext(template) != template and text != str(error), (language, template)
        for name, value in zip(placeholders(template), values, strict=True):
            if isinstance(value, CoreError):
                assert said(value) in text and str(value) not in text, (language, template, text)
            elif name in WORDS:
                assert translation.gettext(WORDS[name][value]) in text and value not in text, (language, text)
            else:
                assert (("%X" if kinds[name] == "X" else "%s") % value) in text, (language, template, text)


def test_english_is_the_table_with_its_values():
    assert str(CoreError(205, (1,))) == "the game is over: side 1 has won"
    assert english(801, (2, 6, 5)) == "2 players are dealt 6 cards: give 6, not 5"
    assert str(CoreError(502, (2, CoreError(507, (27,))))) == "name 2: no control characters (U+001B)"
    assert str(CoreError(9999, (1,))) == "core error 9999 (1,)"  # a newer board's code still reads
    assert str(CoreError(205, ())) == "core error 205 ()"  # values that do not fit: shown, not lost


def test_two_ways_to_a_duplicate_card_are_one_message(speaking):
    errors = []
    for bad in (lambda: cards.parse("5H 5h"), lambda: cards.check_distinct([18, 18])):
        with pytest.raises(CoreError) as e:
            bad()
        errors.append(e.value)
    assert [e.args[0] for e in errors] == [103, 103]
    assert [str(e) for e in errors] == ["duplicate card 5h", "duplicate card 5H"]
    speaking("de")
    assert [said(e) for e in errors] == ["doppelte Karte 5h", "doppelte Karte 5H"]


def test_names_with_and_in_them_stay_whole(speaking):
    rubber = barbu.Rubber(0, ["Ann", "Bob and Cy", "Di", "Ed"])
    with pytest.raises(CoreError) as e:
        rubber.add("queens", {"queens": [1, 1, 1, 1]}, [[1, 2, False], [2, 1, False]])
    speaking("es")
    assert said(e.value).startswith("Bob and Cy y Di tienen ")
    with pytest.raises(CoreError) as e:
        barbu.check_doubles([[0, 1, False], [1, 0, True]], 3)
    assert said(e.value).startswith("jugador 1 y jugador 2 tienen ")  # no names: the seats, in Spanish


def test_a_contract_and_a_hand_are_said_in_the_readers_words(speaking):
    rubber = barbu.Rubber(0, ["Ann", "Bob", "Cy", "Di"])
    rubber.add("queens", {"queens": [1, 1, 1, 1]})
    with pytest.raises(CoreError) as e:
        rubber.add("queens", {"queens": [1, 1, 1, 1]})
    speaking("de")
    assert said(e.value) == "Ann, der Geber, hat Damen in dieser Runde schon gespielt"
    from cribrules import piquet

    with pytest.raises(CoreError) as e:
        piquet.check_hands(cards.parse("7S 8S"), [])
    assert said(e.value).startswith("Vorhand ")
    assert "elder" not in said(e.value)


def test_a_layouts_led_role_is_said_in_the_language(speaking):
    from cribcore.layout import Layout

    runs = [{"kind": "holes", "track": 0, "from": 1, "to": 120}, {"kind": "holes", "track": 0, "from": 5, "to": 5}]
    with pytest.raises(CoreError) as e:
        Layout({"name": "mine", "tracks": 2, "leds": 121, "runs": runs})
    assert str(e.value) == "layout mine: track 1 hole 5 is on two LEDs (4 and 120)"
    speaking("it")
    assert said(e.value) == "disposizione mine: pista 1 foro 5 è su due LED (4 e 120)"


def test_a_name_problem_is_a_phrase_said_in_the_language(speaking):
    speaking("it")
    problem = names.name_problem(" Ann")
    assert isinstance(problem, CoreError)
    assert said(problem) == "niente spazi all'inizio o alla fine"
    with pytest.raises(CoreError) as e:
        names.check_names(["Ann", ""], 2)
    assert said(e.value) == "nome 2: un nome non può essere vuoto"


def test_any_other_error_is_said_as_it_is():
    assert said(ValueError("already in the reader's words")) == "already in the reader's words"


def _real_bad_inputs():
    """Bad input each module refuses, as the test suite gives it: one call a CoreError."""
    from cribcore import game, match, partie
    from cribcore.config import Config
    from cribcore.layout import Layout
    from cribrules import discard, pegging, piquet, replay, show

    strong, weak = "AS KS QS JS TS AH KH QH AD KD AC KC", "9S 8S 7S JH TH 9H 8H QD JD TD QC JC"
    return [
        lambda: cards.parse("5H ZZ"),
        lambda: game.Game(5),
        lambda: game.Game(2, 100),
        lambda: game.Game(2).add(0, 19, game.HAND),
        lambda: game.Game(2).add(1, 4, game.CRIB),
        lambda: game.Game(2).add(0, 30),
        lambda: match.Match(2, best_of=3, first_to=5),
        lambda: pegging.Play([cards.parse("5H 5D 5S 5C"), cards.parse("JH QH KH TH")], 0).lay(cards.parse("5H")[0]),
        lambda: show.score(cards.parse("5H 5D 5S"), 1),
        lambda: show.check_claim(19),
        lambda: discard.analyse(cards.parse("5H 5D 5S 5C JH"), 2),
        lambda: barbu.Rubber(0, ["Ann", "Bob", "Cy", "Di"]).add("trumps", {"tricks": [1, 2, 3, 4]}),
        lambda: barbu.load_rubber({"game": "barbu", "v": 1, "deals": [{"contract": "queens", "result": {}}]}),
        lambda: piquet.score_deal(cards.parse(strong), cards.parse(weak), [0] * 11),
        lambda: piquet.check_hands(cards.parse(strong)[:11], cards.parse(weak)),
        lambda: partie.PiquetGame().add(0, 0, game.POINTS),
        lambda: replay.load_game({"v": 9}),
        lambda: names.check_names(["Ann", "Ann\x07"], 2),
        lambda: Layout({"name": "mine", "tracks": 2, "leds": 2, "runs": [{"kind": "dealer", "track": 5}]}),
        lambda: Config({"strip_pin": 2, "buttons": {"P1": 2, "P2": 3, "UNDO": 4, "SKUNK": 5, "OK": 6}}),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_suites_bad_inputs_are_said_in_the_language_with_no_english_left(language, speaking):
    from english import english_runs, vocabulary

    words = vocabulary(language)
    codes = set()
    for bad in _real_bad_inputs():
        with pytest.raises(CoreError) as e:
            bad()
        english = str(e.value)
        speaking(language)
        text = said(e.value)
        speaking("en")
        codes.add(e.value.args[0])
        assert text != english and not english_runs(text, words, least=2), (language, english, text)
    assert len(codes) == len(_real_bad_inputs())  # twenty different messages
