# Reading a record back (cribcore.record makes them): its settings checked
# and every event replayed through the model, so a record that breaks a
# rule is refused with the reason. The host does this before it stores one.
from cribcore import CoreError, const
from cribcore.game import KINDS, Game
from cribcore.match import Match
from cribcore.record import VERSION

_TYPE_CHECKING = const(0)  # typing's, folded away on MicroPython (cribcore.record says how)
if _TYPE_CHECKING:
    from cribcore.partie import PiquetMatch

# The codes of cribcore.messages.
_VERSION = const(451)
_PIQUET_FIELD = const(452)
_KIND = const(453)
_BAD_EVENT = const(454)
_RESULT = const(455)
_NO_FIELD = const(456)
_BAD_FIELD = const(457)
_NO_GAME = const(458)
_DEALT_FIRST = const(459)
_WINNER = const(460)


def load_game(rec: dict) -> Game:
    """Check a one-game record (cribbage or piquet) by replaying its events;
    returns the Game."""
    m = _match_from(rec, _field(rec, "dealer", int))
    _replay(m, 0, rec)
    return m.game


def _match_from(rec: dict, dealer: int) -> "Match | PiquetMatch":
    """A new Match with the settings of a record, after checking its version."""
    v = _field(rec, "v", int)
    if v != VERSION:
        raise CoreError(_VERSION, (v, VERSION))
    kind = _field(rec, "game", str)
    if kind == "piquet":
        from cribcore.partie import PiquetMatch  # loaded only for a piquet record

        m = PiquetMatch(dealer)
        for name in ("players", "target", "scheme"):
            if rec.get(name) != getattr(m, name):
                raise CoreError(_PIQUET_FIELD, (name, rec.get(name)))
        return m
    if kind != "cribbage":
        raise CoreError(_KIND, (kind,))
    none = type(None)
    return Match(
        _field(rec, "players", int),
        _field(rec, "target", int),
        _field(rec, "scheme", str),
        _field(rec, "best_of", (int, none)),
        _field(rec, "first_to", (int, none)),
        dealer,
    )


def _replay(m: "Match | PiquetMatch", i: int, gd: dict) -> None:
    g = m.game
    for e in _field(gd, "events", list):
        if not isinstance(e, list) or len(e) != 4 or e[2] not in KINDS:
            raise CoreError(_BAD_EVENT, (i + 1, e))
        g.add(e[0], e[1], e[2], e[3])
    r = m.result(i)
    stored = (gd.get("winner"), gd.get("skunk"), gd.get("points"))
    if (r is None and stored != (None, None, None)) or (r is not None and stored != r):
        raise CoreError(_RESULT, (i + 1, stored))


def _field(d: object, name: str, kinds: type | tuple[type, ...]):  # -> the field's value, of kinds
    if not isinstance(d, dict) or name not in d:
        raise CoreError(_NO_FIELD, (name,))
    v = d[name]
    if not isinstance(v, kinds):
        raise CoreError(_BAD_FIELD, (name, v))
    return v


def load_match(record: dict) -> "Match | PiquetMatch":
    """Rebuild a Match from a record; ValueError if it is not one we can trust."""
    games = _field(record, "games", list)
    if not games:
        raise CoreError(_NO_GAME, ())
    m = _match_from(record, _field(games[0], "dealer", int))
    for i in range(len(games)):
        gd = games[i]
        if i:
            m.next_game()
        g = m.game
        if _field(gd, "dealer", int) != g.first_dealer:
            raise CoreError(_DEALT_FIRST, (i + 1, gd["dealer"], g.first_dealer))
        _replay(m, i, gd)
    result = _field(record, "result", dict)
    if result.get("winner") != m.winner():
        raise CoreError(_WINNER, (result.get("winner"),))
    return m
