# Reading a record back (cribcore.record makes them): its settings checked
# and every event replayed through the model, so a record that breaks a
# rule is refused with the reason. The host does this before it stores one.
from cribcore.game import KINDS
from cribcore.match import Match
from cribcore.record import VERSION


def load_game(rec):
    """Check a one-game record (cribbage or piquet) by replaying its events;
    returns the Game."""
    m = _match_from(rec, _field(rec, "dealer", int))
    _replay(m, 0, rec)
    return m.game


def _match_from(rec, dealer):
    """A new Match with the settings of a record, after checking its version."""
    v = _field(rec, "v", int)
    if v != VERSION:
        raise ValueError("record version %r is not supported (this core reads %d)" % (v, VERSION))
    kind = _field(rec, "game", str)
    if kind == "piquet":
        from cribcore.partie import PiquetMatch  # loaded only for a piquet record

        m = PiquetMatch(dealer)
        for name in ("players", "target", "scheme"):
            if rec.get(name) != getattr(m, name):
                raise ValueError("a piquet record with %s %r" % (name, rec.get(name)))
        return m
    if kind != "cribbage":
        raise ValueError("not a cribbage or piquet record: %r" % (kind,))
    none = type(None)
    return Match(
        _field(rec, "players", int),
        _field(rec, "target", int),
        _field(rec, "scheme", str),
        _field(rec, "best_of", (int, none)),
        _field(rec, "first_to", (int, none)),
        dealer,
    )


def _replay(m, i, gd):
    g = m.game
    for e in _field(gd, "events", list):
        if not isinstance(e, list) or len(e) != 4 or e[2] not in KINDS:
            raise ValueError("game %d: bad event %r" % (i + 1, e))
        g.add(e[0], e[1], e[2], e[3])
    r = m.result(i)
    stored = (gd.get("winner"), gd.get("skunk"), gd.get("points"))
    if (r is None and stored != (None, None, None)) or (r is not None and stored != r):
        raise ValueError("game %d: stored result %r does not match its events" % (i + 1, stored))


def _field(d, name, kinds):
    if not isinstance(d, dict) or name not in d:
        raise ValueError("record has no %r" % name)
    v = d[name]
    if not isinstance(v, kinds):
        raise ValueError("record field %r has a bad value %r" % (name, v))
    return v


def load_match(record):
    """Rebuild a Match from a record; ValueError if it is not one we can trust."""
    games = _field(record, "games", list)
    if not games:
        raise ValueError("record holds no game")
    m = _match_from(record, _field(games[0], "dealer", int))
    for i in range(len(games)):
        gd = games[i]
        if i:
            m.next_game()
        g = m.game
        if _field(gd, "dealer", int) != g.first_dealer:
            raise ValueError("game %d: seat %r dealt first, but the loser (seat %d) deals"
                             % (i + 1, gd["dealer"], g.first_dealer))
        _replay(m, i, gd)
    result = _field(record, "result", dict)
    if result.get("winner") != m.winner():
        raise ValueError("stored match winner %r does not match the games" % (result.get("winner"),))
    return m
