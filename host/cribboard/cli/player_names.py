# What a user asks of the players (`cribboard players`), checked and said in
# the reader's language; the database's side is cribboard.store.players.
from typing import Any

from cribboard.errors import UsageError
from cribboard.store import players as stored
from cribboard.text.error_words import said
from cribboard.text.i18n import _
from cribboard.text.quote import quote
from cribcore.names import name_problem


def checked(name: str) -> str:
    problem = name_problem(name)
    if problem:
        raise UsageError(_("%s is not a name: %s") % (quote(name), said(problem)))
    return name


def _board(db: Any, prefix: str) -> str:
    found = stored.boards_like(db, prefix)
    if len(found) != 1:
        if not found:
            raise UsageError(_("no board matches %r") % prefix)
        raise UsageError(
            _("more than one board matches %(prefix)r: %(boards)s") % {"prefix": prefix, "boards": ", ".join(found)}
        )
    return found[0]


def reassign(
    db: Any, name: str, track: int, game: int | None = None, board: str | None = None, match: int | None = None
) -> int:
    """Count track `track` (1-based) of one game, of a board's match or of
    all a board's games as played by `name`. What the board reported stays
    beside it. Returns how many games changed."""
    checked(name)
    if game is not None:
        if not stored.game_exists(db, game):
            raise UsageError(_("no game %d") % game)
        changed = stored.seat_track(db, name, track - 1, game=game)
    elif board is not None:
        changed = stored.seat_track(db, name, track - 1, board=_board(db, board), match=match)
    else:
        raise UsageError(_("say which games: --game ID, or --board ID (and --match N)"))
    if not changed:
        raise UsageError(_("no game has a track %d there") % track)
    return changed


def rename(db: Any, old: str, new: str) -> int:
    """The player `old` is called `new` from now on, in every game; if `new`
    is a player already, the two become one. Returns the games it covers."""
    checked(new)
    old_id = stored.find(db, old)
    if old_id is None:
        raise UsageError(_("no player is called %r") % old)
    return stored.merge(db, old_id, new)
