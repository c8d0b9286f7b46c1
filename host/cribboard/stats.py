# Listings and statistics from the database: plain rows that the command
# line prints as tables, JSON or CSV. Games name their players (the players
# table); statistics count cribbage games only, a piquet partie is listed
# but never counted as one.
import json
from typing import Any

from cribcore.game import SKUNK_NAMES

Row = dict[str, Any]


def seats(db: Any) -> dict[int, list[str]]:
    """game id -> the players' names, by track."""
    out: dict[int, list[str]] = {}
    for r in db.all("SELECT gp.game_id, gp.track, p.name FROM game_players gp JOIN players p "
                    "ON p.id = gp.player_id ORDER BY gp.game_id, gp.track"):
        out.setdefault(r["game_id"], []).append(r["name"])
    return out


def _named(names: list[str], side: Any) -> str | None:
    if side is None:
        return None
    return names[side] if 0 <= side < len(names) else "track %d" % (side + 1)


def games(db: Any, board: str | None = None) -> list[Row]:
    sql = ("SELECT id, board, seq, kind, match_no, game_no, players, target, scheme, winner, skunk, points, "
           "scores, match_winner, ended_at FROM games")
    args: tuple[Any, ...] = ()
    if board:
        sql += " WHERE board LIKE ?"
        args = (board + "%",)
    names = seats(db)
    rows = []
    for r in db.all(sql + " ORDER BY board, seq", args):
        who = names.get(r["id"], [])
        rows.append({
            "id": r["id"], "board": r["board"], "seq": r["seq"], "kind": r["kind"], "match": r["match_no"],
            "game": r["game_no"], "players": r["players"], "names": who, "target": r["target"],
            "scheme": r["scheme"], "winner": _named(who, r["winner"]), "scores": json.loads(r["scores"]),
            "skunk": SKUNK_NAMES[r["skunk"]], "game_points": r["points"],
            "match_winner": _named(who, r["match_winner"]), "ended_at": r["ended_at"],
        })
    return rows


def game(db: Any, game_id: int) -> tuple[dict[str, Any], str]:
    r = db.one("SELECT record, board FROM games WHERE id = ?", (game_id,))
    if r is None:
        raise KeyError(game_id)
    return json.loads(r["record"]), r["board"]


def player_stats(db: Any) -> list[Row]:
    """Per player, over cribbage games: games, wins, skunks given and taken
    by class, matches won, and average points per entry by kind."""
    out: dict[str, Row] = {}

    def row(name: str) -> Row:
        if name not in out:
            out[name] = {"player": name, "games": 0, "wins": 0, "matches_won": 0,
                         "skunks_given": [0, 0, 0], "skunks_taken": [0, 0, 0], "points": {}}
        return out[name]

    for g in db.all("SELECT g.winner, g.skunk, g.match_winner, gp.track, p.name FROM games g "
                    "JOIN game_players gp ON gp.game_id = g.id JOIN players p ON p.id = gp.player_id "
                    "WHERE g.kind = 'cribbage'"):
        r = row(g["name"])
        r["games"] += 1
        if g["track"] == g["winner"]:
            r["wins"] += 1
            if g["skunk"]:
                r["skunks_given"][g["skunk"] - 1] += 1
            if g["match_winner"] == g["track"]:
                r["matches_won"] += 1
        elif g["skunk"]:
            r["skunks_taken"][g["skunk"] - 1] += 1
    for e in db.all("SELECT p.name, e.kind, COUNT(*) AS n, SUM(e.points) AS total FROM events e "
                    "JOIN games g ON g.id = e.game_id "
                    "JOIN game_players gp ON gp.game_id = e.game_id AND gp.track = e.side "
                    "JOIN players p ON p.id = gp.player_id "
                    "WHERE e.kind != 'deal' AND g.kind = 'cribbage' GROUP BY p.name, e.kind"):
        row(e["name"])["points"][e["kind"]] = round(e["total"] / e["n"], 2)
    return sorted(out.values(), key=lambda r: r["player"])


def board_stats(db: Any) -> list[Row]:
    return db.all("SELECT b.board, b.first_sync, b.last_sync, b.firmware, COUNT(g.id) AS games, "
                  "COUNT(DISTINCT g.match_no) AS matches, "
                  "SUM(CASE WHEN g.skunk > 0 THEN 1 ELSE 0 END) AS skunks "
                  "FROM boards b LEFT JOIN games g ON g.board = b.board GROUP BY b.board ORDER BY b.board")
