# Players in the results database: one row a name, however many boards and
# games it plays on. Each game names who sat at each track (game_players),
# keeping what the board reported beside the player it now counts for, so
# a rename after a sync (`cribboard players rename`) loses no history.
from typing import Any

from cribboard.clip import quote
from cribboard.errors import UsageError
from cribboard.i18n import _
from cribboard.said import said
from cribcore.names import name_problem


def player_id(db: Any, name: str) -> int:
    """The id of the player called name, made if new (safe with other
    writers at the same moment: the name is unique). Looked up first: on
    PostgreSQL an insert that conflicts still takes a number from the
    sequence, and the ids would differ from SQLite's for the same players."""
    found = db.value("SELECT id FROM players WHERE name = ?", (name,))
    if found is not None:
        return found
    db.execute("INSERT INTO players (name) VALUES (?) ON CONFLICT (name) DO NOTHING", (name,))
    return db.value("SELECT id FROM players WHERE name = ?", (name,))


def seat(db: Any, game_id: int, names: list[str], reported: list[str] | None = None,
         known: dict[str, int] | None = None) -> None:
    """Who played each track of a game. known: ids already looked up in
    this transaction, by name (a sync's batch names the same few players)."""
    known = {} if known is None else known
    for track, name in enumerate(names):
        if name not in known:
            known[name] = player_id(db, name)
        db.execute("INSERT INTO game_players (game_id, track, player_id, reported) VALUES (?, ?, ?, ?)",
                   (game_id, track, known[name], (reported or names)[track]))


def checked(name: str) -> str:
    problem = name_problem(name)
    if problem:
        raise UsageError(_("%s is not a name: %s") % (quote(name), said(problem)))
    return name


def listing(db: Any) -> list[dict[str, Any]]:
    """Every player: games played (cribbage and piquet), boards played on."""
    return db.all(
        "SELECT p.id, p.name, COUNT(gp.game_id) AS games, COUNT(DISTINCT g.board) AS boards "
        "FROM players p LEFT JOIN game_players gp ON gp.player_id = p.id "
        "LEFT JOIN games g ON g.id = gp.game_id GROUP BY p.id, p.name ORDER BY p.name")


def _board(db: Any, prefix: str) -> str:
    found = [r["board"] for r in db.all("SELECT board FROM boards WHERE board LIKE ? ORDER BY board",
                                        (prefix + "%",))]
    if len(found) != 1:
        if not found:
            raise UsageError(_("no board matches %r") % prefix)
        raise UsageError(_("more than one board matches %(prefix)r: %(boards)s") % {
            "prefix": prefix, "boards": ", ".join(found)})
    return found[0]


def reassign(db: Any, name: str, track: int, game: int | None = None, board: str | None = None,
             match: int | None = None) -> int:
    """Count track `track` (1-based) of one game, of a board's match or of
    all a board's games as played by `name`. What the board reported stays
    beside it. Returns how many games changed."""
    checked(name)
    where: list[str] = ["gp.track = ?"]
    args: list[Any] = [track - 1]
    if game is not None:
        if db.value("SELECT id FROM games WHERE id = ?", (game,)) is None:
            raise UsageError(_("no game %d") % game)
        where.append("gp.game_id = ?")
        args.append(game)
    elif board is not None:
        where.append("g.board = ?")
        args.append(_board(db, board))
        if match is not None:
            where.append("g.match_no = ?")
            args.append(match)
    else:
        raise UsageError(_("say which games: --game ID, or --board ID (and --match N)"))
    with db.transaction():
        pid = player_id(db, name)
        ids = [r["game_id"] for r in db.all(
            "SELECT gp.game_id FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE " + " AND ".join(where),
            args)]
        for game_id in ids:
            db.execute("UPDATE game_players SET player_id = ? WHERE game_id = ? AND track = ?",
                       (pid, game_id, track - 1))
        _drop_unused(db)
    if not ids:
        raise UsageError(_("no game has a track %d there") % track)
    return len(ids)


def rename(db: Any, old: str, new: str) -> int:
    """The player `old` is called `new` from now on, in every game; if `new`
    is a player already, the two become one. Returns the games it covers."""
    checked(new)
    with db.transaction():
        old_id = db.value("SELECT id FROM players WHERE name = ?", (old,))
        if old_id is None:
            raise UsageError(_("no player is called %r") % old)
        new_id = player_id(db, new)
        if new_id != old_id:
            db.execute("UPDATE game_players SET player_id = ? WHERE player_id = ?", (new_id, old_id))
            _drop_unused(db)
        return db.value("SELECT COUNT(*) FROM game_players WHERE player_id = ?", (new_id,))


def _drop_unused(db: Any) -> None:
    db.execute("DELETE FROM players WHERE id NOT IN (SELECT player_id FROM game_players)")


def history(db: Any, game: int) -> list[dict[str, Any]]:
    """Who played each track of a game, and what the board reported."""
    return db.all("SELECT gp.track + 1 AS track, p.name, gp.reported FROM game_players gp "
                  "JOIN players p ON p.id = gp.player_id WHERE gp.game_id = ? ORDER BY gp.track", (game,))
