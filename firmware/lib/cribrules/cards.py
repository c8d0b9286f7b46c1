# Cards as small ints (rank index * 4 + suit): no heap per card on a board.

from cribcore import CoreError, const

_NO_SUCH_CARD = const(101)  # the codes of cribcore.messages
_UNKNOWN_CARD = const(102)
_DUPLICATE_CARD = const(103)
_NOT_A_CARD = const(104)

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
# Hollow symbols are accepted too: people type what their font offers.
_HOLLOW_SYMBOLS = "♧♢♡♤"

ACE = 0
JACK = 10
KING = 12
DECK_SIZE = 52


def card(rank: int, suit: int) -> int:
    """The card of rank index 0..12 (A..K) and suit index 0..3 (C D H S)."""
    if not (0 <= rank <= KING and 0 <= suit <= 3):
        raise CoreError(_NO_SUCH_CARD, (rank, suit))
    return rank * 4 + suit


def rank(c: int) -> int:
    return c >> 2


def suit(c: int) -> int:
    return c & 3


def value(c: int) -> int:
    """Pip value for fifteens and the count: A=1, 2..10, J/Q/K=10."""
    r = c >> 2
    return r + 1 if r < 9 else 10


def _rank_of(text: str) -> int:
    if text == "10" or text == "T":
        return 9
    if len(text) == 1:
        i = RANKS.find(text)
        if i >= 0:
            return i
    return -1


def _suit_of(ch: str) -> int:
    i = SUITS.find(ch)
    if i < 0:
        i = SUIT_SYMBOLS.find(ch)
    if i < 0:
        i = _HOLLOW_SYMBOLS.find(ch)
    return i


def parse_card(token: str) -> int:
    """One card from text such as 5H, TD, 10D, jc or 5♥."""
    t = token.strip().upper()
    r = _rank_of(t[:-1]) if len(t) >= 2 else -1
    s = _suit_of(t[-1]) if r >= 0 else -1
    if s < 0:
        raise CoreError(_UNKNOWN_CARD, (token,))
    return r * 4 + s


def parse(text: str) -> list[int]:
    """All cards in text (separated by spaces or commas); duplicates refused."""
    out = []  # type: list[int]
    for token in text.replace(",", " ").split():
        c = parse_card(token)
        if c in out:
            raise CoreError(_DUPLICATE_CARD, (token,))
        out.append(c)
    return out


def format_card(c: int, symbols: bool = False) -> str:
    if not (isinstance(c, int) and 0 <= c < DECK_SIZE):
        raise CoreError(_NOT_A_CARD, (c,))
    r = c >> 2
    name = "10" if r == 9 else RANKS[r]
    return name + (SUIT_SYMBOLS if symbols else SUITS)[c & 3]


def format_cards(cards: list[int] | tuple[int, ...], symbols: bool = False) -> str:
    return " ".join([format_card(c, symbols) for c in cards])


def check_distinct(cards: list[int] | tuple[int, ...]) -> None:
    """ValueError unless every item is a card and none repeats."""
    seen = 0
    for c in cards:
        if not (isinstance(c, int) and 0 <= c < DECK_SIZE):
            raise CoreError(_NOT_A_CARD, (c,))
        bit = 1 << c
        if seen & bit:
            raise CoreError(_DUPLICATE_CARD, (format_card(c),))
        seen |= bit
