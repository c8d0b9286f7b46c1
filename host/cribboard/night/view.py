# What the room sees of a night (the club's projector page, GET /api/night):
# the round in play, who plays whom at which table, each game's result once
# in or its live score from the board meanwhile (or the players' phones'
# claims of it), and the standings. When
# every game of a round is in, the round in play is the next one: the page
# shows it at once. Names and whatever a board reports go out as data; the
# page puts them on screen as text.
from collections.abc import Mapping
from typing import Any

from cribboard.event import claims as claiming
from cribboard.night.director import Night
from cribboard.night.results import pair


def as_page(night: Night | None, live: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """live: each board's last live scoreboard (scores, players, winner), by board id."""
    if night is None:
        return {"night": None}
    number = night.round_now()
    games = []
    for g in night.drawn[number - 1] if night.drawn else ():
        result = night.filed.results.get((number, pair(g.first, g.second)))
        row: dict[str, Any] = {
            "table": g.table,
            "first": night.label(g.first),
            "second": night.label(g.second) if g.second is not None else None,
            "scores": list(result.scores) if result is not None and g.second is not None else None,
            "winner": night.label(result.winner) if result is not None and g.second is not None else None,
            "live": None,
            "has_board": night.tables.board_at(g.table or "", number) is not None,
            "claim": None,
        }
        words = night.filed.claims.get((number, pair(g.first, g.second)))
        if words is not None and g.second is not None:  # (the phones' claims of a result not in yet)
            row["claim"] = claiming.as_row(words, (g.first, g.second), night.label)
        seen = live.get(night.tables.board_at(g.table, number) or "")
        told = [night.roster.name(g.first), night.roster.name(g.second or 0)] if g.second is not None else None
        if result is None and seen is not None and seen.get("players") == told:
            row["live"] = {"scores": list(seen.get("scores") or [])}  # the pair's own game, not the last pair's
        games.append(row)
    return {
        "night": {
            "id": night.id,
            "name": night.name,
            "rounds": night.rounds,
            "round": number,
            "over": night.over() or night.in_play > night.rounds,
            "ended": night.over(),
            "flags": len(night.filed.flags) + len(night.filed.disputes()),
        },
        "games": games,
        "standings": [
            {k: r.as_dict()[k] for k in ("rank", "player", "card", "game_points", "wins", "spread", "games")}
            for r in night.standings()
        ],
    }
