# Parsing and formatting cards.
from cribrules import cards
from cribrules.cards import format_card, format_cards, parse

from check import raises


def test_parse_every_spelling_of_a_card():
    assert parse("5H") == [cards.card(4, 2)]
    assert parse("TD") == parse("10D") == parse("td") == parse("10d")
    assert parse("5♥") == parse("5h") == parse("5♡")
    assert parse("AS KC") == [cards.card(0, 3), cards.card(12, 0)]
    assert parse("as,kc") == parse("AS KC")
    assert parse("") == []


def test_format_round_trips_the_whole_deck():
    deck = list(range(52))
    assert parse(format_cards(deck)) == deck
    assert parse(format_cards(deck, symbols=True)) == deck
    assert format_card(parse("TD")[0]) == "10D"
    assert format_card(parse("qs")[0], symbols=True) == "Q♠"


def test_unknown_card_is_refused_naming_the_token():
    for bad in ("ZZ", "1H", "11S", "5X", "H", "5", "JJ", "10"):
        msg = raises(ValueError, parse, "AS " + bad + " KD")
        assert repr(bad) in msg, msg


def test_duplicate_card_is_refused_naming_the_token():
    msg = raises(ValueError, parse, "5H 6H 5h")
    assert "duplicate" in msg
    assert "5h" in msg


def test_values_and_ranks():
    assert [cards.value(c) for c in parse("AC 2C 9C TC JC QC KC")] == [1, 2, 9, 10, 10, 10, 10]
    assert cards.rank(parse("JD")[0]) == cards.JACK
    assert cards.suit(parse("JD")[0]) == 1
    raises(ValueError, cards.card, 13, 0)
    raises(ValueError, format_card, 52)
