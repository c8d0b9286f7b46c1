# Listings and statistics from the database: plain rows that the command
# line prints as tables, JSON or CSV.
import json

from cribcore.game import SKUNK_NAMES


def player(board, side):
    return "%s/track %d" % (board[:8], side + 1)


def games(conn, board=None):
    sql = ("SELECT id, board, seq, match_no, game_no, players, target, scheme, winner, skunk, points, scores, "
           "match_winner, ended_at FROM games")
    args = ()
    if board:
        sql += " WHERE board LIKE ?"
        args = (board + "%",)
    rows = []
    for r in conn.execute(sql + " ORDER BY board, seq", args):
        rows.append({
            "id": r["id"], "board": r["board"], "seq": r["seq"], "match": r["match_no"], "game": r["game_no"],
            "players": r["players"], "target": r["target"], "scheme": r["scheme"],
            "winner": player(r["board"], r["winner"]), "scores": json.loads(r["scores"]),
            "skunk": SKUNK_NAMES[r["skunk"]], "game_points": r["points"],
            "match_winner": None if r["match_winner"] is None else player(r["board"], r["match_winner"]),
            "ended_at": r["ended_at"],
        })
    return rows


def game(conn, game_id):
    r = conn.one("SELECT * FROM games WHERE id = ?", (game_id,))
    if r is None:
        raise KeyError(game_id)
    return json.loads(r["record"]), r["board"]


def player_stats(conn):
    """Per player (a board's track): games, wins, skunks given and taken by
    class, matches won, and average points per entry by kind."""
    out = {}

    def row(board, side):
        key = player(board, side)
        if key not in out:
            out[key] = {"player": key, "board": board, "games": 0, "wins": 0, "matches_won": 0,
                        "skunks_given": [0, 0, 0], "skunks_taken": [0, 0, 0], "points": {}}
        return out[key]

    for g in conn.execute("SELECT id, board, players, winner, skunk, scores, match_winner FROM games"):
        sides = len(json.loads(g["scores"]))
        for side in range(sides):
            r = row(g["board"], side)
            r["games"] += 1
            if side == g["winner"]:
                r["wins"] += 1
                if g["skunk"]:
                    r["skunks_given"][g["skunk"] - 1] += 1
                if g["match_winner"] == side:
                    r["matches_won"] += 1
            elif g["skunk"]:
                r["skunks_taken"][g["skunk"] - 1] += 1
    for e in conn.execute("SELECT g.board, e.side, e.kind, COUNT(*) AS n, SUM(e.points) AS total "
                          "FROM events e JOIN games g ON g.id = e.game_id WHERE e.kind != 'deal' "
                          "GROUP BY g.board, e.side, e.kind"):
        row(e["board"], e["side"])["points"][e["kind"]] = round(e["total"] / e["n"], 2)
    return sorted(out.values(), key=lambda r: r["player"])


def board_stats(conn):
    rows = []
    for r in conn.execute("SELECT b.board, b.first_sync, b.last_sync, b.firmware, COUNT(g.id) AS games, "
                          "COUNT(DISTINCT g.match_no) AS matches, "
                          "SUM(CASE WHEN g.skunk > 0 THEN 1 ELSE 0 END) AS skunks "
                          "FROM boards b LEFT JOIN games g ON g.board = b.board GROUP BY b.board ORDER BY b.board"):
        rows.append(dict(r))
    return rows
