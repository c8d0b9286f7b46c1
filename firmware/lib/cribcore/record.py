# Match records: plain dicts and lists that json can carry, versioned, so the
# board can store them and the host can sync them. Loading replays every
# event through the model, so a record that breaks a rule is refused.

from cribcore.game import KINDS
from cribcore.match import Match

VERSION = 1


def _game_dict(match, index):
    g = match.held(index)
    r = match.result(index)
    return {
        "dealer": g.first_dealer,
        "events": [list(e) for e in g.events[:g.cursor]],
        "scores": g.scores(),
        "winner": None if r is None else r[0],
        "skunk": None if r is None else r[1],
        "points": None if r is None else r[2],
    }


def match_record(match):
    """The whole match as a record: settings, every game's events, the result."""
    if len(match.games) != len(match.closed) + 1:
        raise ValueError("the match no longer holds its earlier games")
    rec = _settings(match)
    rec["games"] = [_game_dict(match, i) for i in range(len(match.games))]
    rec["result"] = _standings(match)
    return rec


def game_record(match, index):
    """One game as a record: the match settings, the game's events and result,
    and the match standings after it. This is what a board logs and syncs."""
    rec = _settings(match)
    rec["match_result"] = _standings(match)
    rec.update(_game_dict(match, index))
    return rec


def _settings(match):
    return {
        "v": VERSION,
        "game": getattr(match, "kind", "cribbage"),
        "players": match.players,
        "target": match.target,
        "scheme": match.scheme,
        "best_of": match.best_of,
        "first_to": match.first_to,
    }


def _standings(match):
    wins, points, _ = match.standings()
    return {"winner": match.winner(), "wins": wins, "points": points}


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
