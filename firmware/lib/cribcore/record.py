# Match records: plain dicts and lists that json can carry, versioned, so the
# board can store them and the host can sync them. Reading one back, every
# event replayed through the model, is cribrules.replay (the host's side).

from cribcore import CoreError, const

# typing's TYPE_CHECKING at no cost to a board: a private const, so the branch is folded away and the name
# never kept; the type checkers take it as true (pyproject.toml's mypy, the pyright configs).
_TYPE_CHECKING = const(0)
if _TYPE_CHECKING:
    from cribcore.match import Match
    from cribcore.partie import PiquetMatch

_EARLIER_GAMES = const(401)  # the code of cribcore.messages

VERSION = 1


def _game_dict(match: "Match | PiquetMatch", index: int) -> dict:
    g = match.held(index)
    r = match.result(index)
    return {
        "dealer": g.first_dealer,
        "events": [list(e) for e in g.events[: g.cursor]],
        "scores": g.scores(),
        "winner": None if r is None else r[0],
        "skunk": None if r is None else r[1],
        "points": None if r is None else r[2],
    }


def match_record(match: "Match | PiquetMatch") -> dict:
    """The whole match as a record: settings, every game's events, the result."""
    if len(match.games) != len(match.closed) + 1:
        raise CoreError(_EARLIER_GAMES, ())
    rec = _settings(match)
    rec["games"] = [_game_dict(match, i) for i in range(len(match.games))]
    rec["result"] = _standings(match)
    return rec


def game_record(match: "Match | PiquetMatch", index: int) -> dict:
    """One game as a record: the match settings, the game's events and result,
    and the match standings after it. This is what a board logs and syncs."""
    rec = _settings(match)
    rec["match_result"] = _standings(match)
    rec.update(_game_dict(match, index))
    return rec


def _settings(match: "Match | PiquetMatch") -> dict:
    return {
        "v": VERSION,
        "game": getattr(match, "kind", "cribbage"),
        "players": match.players,
        "target": match.target,
        "scheme": match.scheme,
        "best_of": match.best_of,
        "first_to": match.first_to,
    }


def _standings(match: "Match | PiquetMatch") -> dict:
    wins, points, _ = match.standings()
    return {"winner": match.winner(), "wins": wins, "points": points}
