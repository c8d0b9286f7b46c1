# Players in the results database: one row a name, however many boards and
# games it plays on. Each game names who sat at each track (game_players),
# keeping what the board reported beside the player it now counts for, so
# a rename after a sync loses no history. (cribboard.cli.player_names checks what a
# user asks and says what went wrong.)
from typing import Any

from cribboard.store.engine import Database, Row


def player_id(db: Database, name: str) -> int:
    """The id of the player called name, made if new (safe with other
    writers at the same moment: the name is unique). Looked up first: on
    PostgreSQL an insert that conflicts still takes a number from the
    sequence, and the ids would differ from SQLite's for the same players."""
    found = find(db, name)
    if found is not None:
        return found
    db.execute("INSERT INTO players (name) VALUES (?) ON CONFLICT (name) DO NOTHING", (name,))
    return db.value("SELECT id FROM players WHERE name = ?", (name,))


def find(db: Database, name: str) -> int | None:
    """The id of the player called name, or None."""
    return db.value("SELECT id FROM players WHERE name = ?", (name,))


def seat(
    db: Database, game_id: int, names: list[str], reported: list[str] | None = None, known: dict[str, int] | None = None
) -> None:
    """Who played each track of a game. known: ids already looked up in
    this transaction, by name (a sync's batch names the same few players)."""
    known = {} if known is None else known
    for track, name in enumerate(names):
        if name not in known:
            known[name] = player_id(db, name)
        db.execute(
            "INSERT INTO game_players (game_id, track, player_id, reported) VALUES (?, ?, ?, ?)",
            (game_id, track, known[name], (reported or names)[track]),
        )


def listing(db: Database) -> list[Row]:
    """Every player: games played (cribbage and piquet), boards played on."""
    return db.all(
        "SELECT p.id, p.name, COUNT(gp.game_id) AS games, COUNT(DISTINCT g.board) AS boards "
        "FROM players p LEFT JOIN game_players gp ON gp.player_id = p.id "
        "LEFT JOIN games g ON g.id = gp.game_id GROUP BY p.id, p.name ORDER BY p.name"
    )


def boards_like(db: Database, prefix: str) -> list[str]:
    """The boards whose id starts with prefix, in order."""
    return [r["board"] for r in db.all("SELECT board FROM boards WHERE board LIKE ? ORDER BY board", (prefix + "%",))]


def game_exists(db: Database, game: int) -> bool:
    return db.value("SELECT id FROM games WHERE id = ?", (game,)) is not None


def seat_track(
    db: Database, name: str, track: int, game: int | None = None, board: str | None = None, match: int | None = None
) -> int:
    """Track `track` (0-based) of one game, or of a board's games (of one
    match), is played by `name` from now on; players left with no game go.
    Returns how many games changed."""
    where: list[str] = ["gp.track = ?"]
    args: list[Any] = [track]
    if game is not None:
        where.append("gp.game_id = ?")
        args.append(game)
    else:
        where.append("g.board = ?")
        args.append(board)
        if match is not None:
            where.append("g.match_no = ?")
            args.append(match)
    with db.transaction():
        pid = player_id(db, name)
        ids = [
            r["game_id"]
            for r in db.all(
                "SELECT gp.game_id FROM game_players gp JOIN games g ON g.id = gp.game_id WHERE " + " AND ".join(where),
                args,
            )
        ]
        for game_id in ids:
            db.execute("UPDATE game_players SET player_id = ? WHERE game_id = ? AND track = ?", (pid, game_id, track))
        _drop_unused(db)
    return len(ids)


def merge(db: Database, old_id: int, new: str) -> int:
    """The player old_id is called `new` from now on, in every game (one
    player with `new` if that is a player already). Returns its games."""
    with db.transaction():
        new_id = player_id(db, new)
        if new_id != old_id:
            db.execute("UPDATE game_players SET player_id = ? WHERE player_id = ?", (new_id, old_id))
            _drop_unused(db)
        return db.value("SELECT COUNT(*) FROM game_players WHERE player_id = ?", (new_id,))


def _drop_unused(db: Database) -> None:
    db.execute("DELETE FROM players WHERE id NOT IN (SELECT player_id FROM game_players)")


def history(db: Database, game: int) -> list[Row]:
    """Who played each track of a game, and what the board reported."""
    return db.all(
        "SELECT gp.track + 1 AS track, p.name, gp.reported FROM game_players gp "
        "JOIN players p ON p.id = gp.player_id WHERE gp.game_id = ? ORDER BY gp.track",
        (game,),
    )
