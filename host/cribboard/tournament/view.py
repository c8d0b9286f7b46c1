# What the room sees of a tournament (the club's projector page, GET
# /api/night, beside the night's part): while the qualifying is played, who
# is through, who is at the cut line and who is out, row by row of the
# standings; once the cut is made, the bracket as a display board shows it:
# every match of every round, its players and seeds, its games won, its
# winner, and the live score from the board at its table meanwhile.
from collections.abc import Mapping
from typing import Any

from cribboard.night import director as nights
from cribboard.night import view as night_view
from cribboard.night.director import Night
from cribboard.store import tournaments as kept
from cribboard.store.engine import Database
from cribboard.text import game_words
from cribboard.tournament import director
from cribboard.tournament.cut import bracket_size, byes
from cribboard.tournament.director import Tournament


def read(db: Database, which: int | None = None) -> tuple[Night | None, Tournament | None]:
    """The night the page shows (the one under way, else the last) and its tournament if it is one's
    qualifying; or, asked for by id, that tournament and its qualifying (None, None if there is none)."""
    if which is not None:
        row = kept.tournament(db, which)
        if row is None:
            return None, None
        t = director.load(db, row["id"])
        return t.night, t
    night = nights.latest(db)
    if night is None:
        return None, None
    row = kept.of_night(db, night.id)
    return night, None if row is None else director.load(db, row["id"])


def as_page(shown: tuple[Night | None, Tournament | None], live: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    night, t = shown
    data = night_view.as_page(night, live)
    if t is not None:
        data["tournament"] = _tournament(t, live)
    return data


def _tournament(t: Tournament, live: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    c = t.the_cut()
    q = c.qualifiers if t.seeds is None else len(t.seeds)
    out: dict[str, Any] = {
        "id": t.id,
        "stage": "qualifying" if t.playoffs is None else "over" if t.playoffs.champion() else "playoffs",
        "entrants": t.entrants(),
        "qualifiers": q,
        "bracket": bracket_size(q),
        "byes": byes(q),
        "cut": t.cut_marks(),
        "rounds": [],
    }
    if t.playoffs is None:
        return out
    rows_by_round: dict[int, list[director.BracketRow]] = {}
    for m in director.bracket_rows(t):
        rows_by_round.setdefault(m["round"], []).append(m)
    for number in sorted(rows_by_round):
        matches = []
        for m in rows_by_round[number]:
            shown = {
                k: m[k] for k in ("match", "table", "seeds", "players", "best_of", "bye", "wins", "winner", "claim")
            }
            shown["live"] = _live(t, m, live)
            shown["has_board"] = m["board"] is not None  # (a wooden table's games come from the players' phones)
            shown["next_game"] = len(m["games"]) + 1
            matches.append(shown)
        left = t.playoffs.bracket.matches_in(number) * 2
        name = game_words.round_name(left)  # (the page translates it: t(name, left))
        out["rounds"].append({"round": number, "left": left, "name": name, "matches": matches})
    return out


def _live(t: Tournament, m: Mapping[str, Any], live: Mapping[str, Mapping[str, Any]]) -> list[int] | None:
    """The game in progress at the match's board, if its board shows this pair and the match is on."""
    numbers = m["numbers"]
    if m["winner"] is not None or m["bye"] or m["board"] is None or None in numbers:
        return None
    seen = live.get(str(m["board"]))
    names = [t.night.roster.name(numbers[0]), t.night.roster.name(numbers[1])]
    if seen is None or seen.get("players") != names:
        return None
    return [int(s) for s in seen.get("scores") or []]
