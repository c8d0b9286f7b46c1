# What a scoreboard shows of a board, from the state the board saves (the
# simulated board's state.json, or STATE over the link from a real one),
# rebuilt through the board's own code (cribapp.restore) and the core's
# rules: each track's player, score and back peg, the dealer, the game
# number, the match standings and the trailing track's skunk status.
import json
from typing import Any

from cribboard.boardapp import session_of
from cribcore.game import SKUNK_NAMES, skunk_class, skunk_line, skunk_lines
from cribcore.seal import unseal


def read_state(path: Any) -> dict[str, Any] | None:
    """A board's saved state from its state.json (a sealed line), or None."""
    try:
        with open(path, "rb") as f:
            text = unseal(f.read())
        state = json.loads(text) if text is not None else None
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def view(state: dict[str, Any]) -> dict[str, Any]:
    """The scoreboard of one board; ValueError if the state is not a board's."""
    return view_of(restored(state), state)


def restored(state: dict[str, Any]) -> Any:
    """The board's session in a saved state (cribapp.restore); ValueError if the state is not a board's."""
    try:
        return session_of(state)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
        raise ValueError("not a board's state: %s" % e) from None


def view_of(session: Any, state: dict[str, Any]) -> dict[str, Any]:
    """The scoreboard of a board whose state holds this session (restored)."""
    match = session.match
    g = match.game
    sides = g.sides
    scores = g.scores()
    wins, points, _games = match.standings()
    trailing = g.trailer() if sides > 1 else 0
    settings = session.settings
    skunk = None
    # The trailer's skunk line, once it matters: at the end (the winner's line says it), or once the
    # leader has reached the top skunk line and the game may end within a deal or two. At 0-0 nobody is
    # "a triple skunk if the game ended now". Piquet has no target and no skunk.
    if g.target and (g.over() or max(scores) >= skunk_lines(g.target)[-1]):
        behind = scores[trailing]
        skunk = {
            "track": trailing,
            "score": behind,
            "line": skunk_line(behind, g.target),
            "would_be": SKUNK_NAMES[skunk_class(behind, g.target)],
        }
    return {
        "board": state.get("board"),
        "kind": match.kind,
        "players": session.names_for(sides),
        "named": [t < len(session.names or []) for t in range(sides)],  # else the board's default, said by the page
        "scores": scores,
        "back_pegs": [g.back(s) for s in range(sides)],
        "dealer": g.dealer() % sides,
        "game": len(match.closed) + 1,
        "target": g.target,
        "winner": g.winner(),
        "standings": {
            "wins": wins,
            "game_points": points,
            "best_of": settings.get("best_of"),
            "first_to": settings.get("first_to"),
            "match_winner": match.winner(),
        },
        "skunk": skunk,
        "match": session.match_no,
        "show": session.showing(),
    }
