# Listings and statistics from the database: plain rows that the command
# line prints as tables, JSON or CSV. Games name their players (the players
# table); cribbage statistics count cribbage games only, piquet's parties
# (from boards and from the sheet) have their own: wins, draws, rubicons.
import json
from datetime import datetime, timezone
from typing import Any

from cribboard.sheets.piquet import piquet_result
from cribboard.store import results
from cribboard.store.engine import Row
from cribboard.text.error_words import said
from cribboard.text.i18n import N_, _
from cribcore.game import SKUNK_NAMES
from cribcore.match import PIQUET
from cribcore.partie import rubicon


def seats(db: Any, reported: bool = False) -> dict[int, list[str]]:
    """game id -> the players' names, by track (reported=True: the names as
    the board reported them, before any rename)."""
    out: dict[int, list[str]] = {}
    for r in results.seats(db):
        out.setdefault(r["game_id"], []).append(r["reported"] if reported else r["name"])
    return out


def _named(names: list[str], side: Any) -> str | None:
    if side is None:
        return None
    return names[side] if 0 <= side < len(names) else "track %d" % (side + 1)


def games(db: Any, board: str | None = None, skipped: list[str] | None = None) -> list[Row]:
    """The stored games, oldest first by board. A row that cannot be read
    (whatever its record holds) is left out and said in `skipped`, so one
    bad row never costs the listing of the others."""
    names, as_reported = seats(db), seats(db, reported=True)
    rows = []
    for r in results.games(db, board):
        try:
            rows.append(_game_row(r, names.get(r["id"], []), as_reported.get(r["id"], [])))
        except (TypeError, ValueError, KeyError, IndexError) as e:
            if skipped is not None:
                skipped.append(
                    _("game %s (board %s, record %s) cannot be listed: %s") % (r["id"], r["board"], r["seq"], said(e))
                )
    return rows


def _game_row(r: Row, who: list[str], reported: list[str]) -> Row:
    scores = json.loads(r["scores"])
    if r["kind"] == PIQUET:
        result = piquet_result(scores)
        target = None  # a partie is six deals (eight on a tie), not a race to a number
    else:
        result = SKUNK_NAMES[r["skunk"]]
        target = r["target"]
    return {
        "id": r["id"],
        "board": r["board"],
        "seq": r["seq"],
        "kind": r["kind"],
        "match": r["match_no"],
        "game": r["game_no"],
        "players": r["players"],
        "names": who,
        "target": target,
        "scheme": r["scheme"],
        "winner": _named(who, r["winner"]),
        "scores": scores,
        "result": result,
        "skunk": SKUNK_NAMES[r["skunk"]] if r["kind"] != PIQUET else None,
        "game_points": r["points"],
        "match_winner": _named(who, r["match_winner"]),
        "ended_at": iso_time(r["ended_at"]),
        "reported": reported,
    }


def iso_time(unix: float | None) -> str | None:
    """When a game ended, for a listing or an export: ISO 8601 in UTC with
    its offset, to the second ("2026-11-26T09:14:05+00:00"); stored as unix
    seconds (a board's clock, told by the host)."""
    if unix is None:
        return None
    return datetime.fromtimestamp(float(unix), timezone.utc).isoformat(timespec="seconds")


def game(db: Any, game_id: int) -> tuple[dict[str, Any], str]:
    r = results.record(db, game_id)
    if r is None:
        raise KeyError(game_id)
    return json.loads(r["record"]), r["board"]


def player_stats(db: Any) -> list[Row]:
    """Per player, over cribbage games: games, wins, skunks given and taken
    by class, matches won, and average points per entry by kind."""
    out: dict[str, Row] = {}

    def row(name: str) -> Row:
        if name not in out:
            out[name] = {
                "player": name,
                "games": 0,
                "wins": 0,
                "matches_won": 0,
                "skunks_given": [0, 0, 0],
                "skunks_taken": [0, 0, 0],
                "points": {},
            }
        return out[name]

    for g in results.cribbage_seats(db):
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
    # Points per entry, as far as the game hole: the taps past 121 on a
    # winning entry were pressed but never scored (a game worked by hand:
    # 29 29 29 29 9 reach 121 in five entries, 24.2 each, not 25).
    sums: dict[tuple[str, str], list[int]] = {}
    running: dict[tuple[int, int], int] = {}
    for e in results.cribbage_entries(db):
        key = (e["game_id"], e["side"])
        before = running.get(key, 0)
        points = e["points"]
        running[key] = before + points
        if e["target"] and points > 0:
            points = max(0, min(points, e["target"] - before))
        total = sums.setdefault((e["name"], e["kind"]), [0, 0])
        total[0] += points
        total[1] += 1
    for (name, kind), (points, n) in sums.items():
        row(name)["points"][kind] = round(points / n, 2)
    show = show_stats(db)
    for name, r in out.items():
        r["show"] = show.get(name)  # None: none of the player's games counted the show
    return sorted(out.values(), key=lambda r: r["player"])


def piquet_stats(db: Any) -> list[Row]:
    """Per player, over piquet parties: played, won, lost, drawn, rubicons
    given and taken, and the partie points won less those lost. A row that
    cannot be read counts for nothing (matches names it)."""
    out: dict[str, Row] = {}
    names = seats(db)
    for g in results.piquet_games(db):
        try:
            scores = json.loads(g["scores"])
            result = piquet_result(scores)
            r = rubicon(scores)
        except (TypeError, ValueError):
            continue
        who = names.get(g["id"], [])
        for side in range(2):
            name = who[side] if side < len(who) else "track %d" % (side + 1)
            row = out.setdefault(
                name,
                {
                    "player": name,
                    "parties": 0,
                    "wins": 0,
                    "losses": 0,
                    "draws": 0,
                    "rubicons_given": 0,
                    "rubicons_taken": 0,
                    "points": 0,
                },
            )
            row["parties"] += 1
            if r is None:
                row["draws"] += 1
                continue
            won = r[0] == side
            row["wins" if won else "losses"] += 1
            row["points"] += r[1] if won else -r[1]
            if result == "rubicon":
                row["rubicons_given" if won else "rubicons_taken"] += 1
    return sorted(out.values(), key=lambda r: r["player"])


SHOW_KINDS = ("pegging", "hand", "crib")
NOT_COUNTED = N_(
    "no split: the board did not count the show (menu item 8), so its entries do not say what they were for"
)


def show_stats(db: Any) -> dict[str, Row]:
    """Per player, over cribbage games entered with the show counted: points
    per deal (pegging, hand; the crib per deal dealt), per game, and the best
    hand. Games whose entries carry no kinds are left out, not guessed at."""
    out: dict[str, Row] = {}
    names = seats(db)
    for g in results.cribbage_records(db):
        try:
            _count_show(out, json.loads(g["record"]), names.get(g["id"], []))
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            continue  # a record that cannot be read counts for nothing here (matches names it)
    for r in out.values():
        r.update(
            {
                "pegging_per_deal": round(r["pegging"] / r["deals"], 2),
                "hand_per_deal": round(r["hand"] / r["deals"], 2),
                "crib_per_deal_dealt": round(r["crib"] / r["dealt"], 2) if r["dealt"] else None,
                "pegging_per_game": round(r["pegging"] / r["games"], 2),
                "hand_per_game": round(r["hand"] / r["games"], 2),
                "crib_per_game": round(r["crib"] / r["games"], 2),
            }
        )
    return out


def _count_show(out: dict[str, Row], rec: dict[str, Any], who: list[str]) -> None:
    """Add one game's show entries to the per-player sums in out."""
    events = rec.get("events", [])
    if not any(e[2] in SHOW_KINDS for e in events):
        return
    players, sides = rec["players"], len(rec["scores"])
    totals = [{"pegging": 0, "hand": 0, "crib": 0, "deals": 1, "dealt": 0, "best": 0} for _side in range(sides)]
    deals = 0
    totals[rec["dealer"] % players % sides]["dealt"] += 1
    for seat, points, kind, _ticks in events:
        side = seat % sides
        if kind == "deal":
            deals += 1
            for t in totals:
                t["deals"] += 1
            totals[(rec["dealer"] + deals) % players % sides]["dealt"] += 1
        elif kind in SHOW_KINDS:
            totals[side][kind] += points
            if kind == "hand":
                totals[side]["best"] = max(totals[side]["best"], points)
    for side, t in enumerate(totals):
        name = who[side] if side < len(who) else "track %d" % (side + 1)
        r = out.setdefault(
            name, {"games": 0, "deals": 0, "dealt": 0, "pegging": 0, "hand": 0, "crib": 0, "best_hand": 0}
        )
        r["games"] += 1
        for key in ("deals", "dealt", "pegging", "hand", "crib"):
            r[key] += t[key]
        r["best_hand"] = max(r["best_hand"], t["best"])


def board_stats(db: Any) -> list[Row]:
    return results.boards(db)
