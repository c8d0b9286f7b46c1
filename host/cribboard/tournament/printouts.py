# A tournament on paper and as data: the final places (CSV), the whole
# tournament (JSON: its settings, the qualifying standings with the cut,
# the seeds, every match and the places), and the bracket as a printable
# PDF, drawn as the display boards are: a column a round, each match two
# lines (seed, player, games won) joined to the match its winner goes on
# to. A bracket of more than 32 is drawn in parts: a page a block of 16
# first-round matches, carried to the block's one match; then a page from
# those matches to the final. (The qualifying's scorecards are the night's:
# `cribboard night print`.)
import csv
import io
from typing import Any

from cribboard.night import printouts as night_printouts
from cribboard.text import game_words
from cribboard.text.i18n import _
from cribboard.tournament import director
from cribboard.tournament.director import Tournament

_A4_WIDE = (11.69, 8.27)  # inches
_BLOCK = 16  # first-round matches on one page of a large bracket


def places_rows(t: Tournament) -> list[dict[str, Any]]:
    seeds = t.seeds or []
    by_number = {r.number: r for r in t.standings()}
    out = []
    for place, p in t.places():
        r = by_number.get(p)
        out.append(
            {
                "place": place or None,
                "player": t.night.label(p),
                "number": p,
                "seed": seeds.index(p) + 1 if p in seeds else None,
                "qualifying_rank": None if r is None else r.rank,
                "card": None if r is None else r.card(),
                "spread": None if r is None else r.spread,
            }
        )
    return out


def places_csv(t: Tournament) -> str:
    out = io.StringIO()
    fields = ["place", "player", "number", "seed", "qualifying_rank", "card", "spread"]
    w = csv.DictWriter(out, fields, lineterminator="\n")
    w.writeheader()
    for row in places_rows(t):
        w.writerow({k: "" if v is None else v for k, v in row.items()})
    return out.getvalue()


def as_data(t: Tournament) -> dict[str, Any]:
    """The tournament as JSON: its settings, the qualifying's standings with the cut, the seeds, every
    match of the playoffs (each game with where it came from), and the places."""
    return {
        "tournament": t.id,
        "name": t.night.name,
        "night": t.night.id,
        "format": t.format,
        "games": t.night.rounds,
        "seed": t.night.seed,
        "best_of": t.best_of,
        "final_best_of": t.final_best_of,
        "scheme": t.night.scheme.__dict__,
        "entrants": t.entrants(),
        "qualifying": [
            dict(r.as_dict(lines=True), cut=mark) for r, mark in zip(t.standings(), t.cut_marks(), strict=True)
        ],
        "qualifying_results": night_printouts.results_rows(t.night),
        "seeds": [{"seed": k, "number": p, "player": t.night.label(p)} for k, p in enumerate(t.seeds or [], 1)],
        "bracket": director.bracket_rows(t) if t.playoffs is not None else [],
        "places": places_rows(t),
    }


def bracket_pdf(t: Tournament) -> bytes:
    """The bracket, a page for a bracket of 32 or fewer, in parts for a larger one."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    po = director.playoffs_of(t)
    rows = director.bracket_rows(t)
    by_slot = {(r["round"], r["match"] - 1): r for r in rows}
    rounds = po.bracket.rounds
    first = po.bracket.matches_in(1)
    parts: list[tuple[int, int, int, int]] = []  # (first round shown, its first slot, its matches, last round)
    if first <= _BLOCK:
        parts.append((1, 0, first, rounds))
    else:
        last = 1 + (_BLOCK.bit_length() - 1)  # the round a block's matches come down to one
        parts += [(1, s, _BLOCK, last) for s in range(0, first, _BLOCK)]
        parts.append((last, 0, po.bracket.matches_in(last), rounds))
    heading = _("Tournament %(id)d: %(name)s") % {"id": t.id, "name": t.night.name}
    out = io.BytesIO()
    with PdfPages(out) as pdf:
        for page, (low, start, count, high) in enumerate(parts, 1):
            fig = plt.figure(figsize=_A4_WIDE)
            fig.text(0.04, 0.96, heading, fontsize=15, fontweight="bold", va="top")
            fig.text(
                0.96, 0.96, _("page %(n)d of %(of)d") % {"n": page, "of": len(parts)}, fontsize=9, va="top", ha="right"
            )
            ax = fig.add_axes((0.03, 0.03, 0.94, 0.88))
            ax.axis("off")
            _draw(ax, by_slot, low, start, count, high, po.bracket.matches_in)
            pdf.savefig(fig)
            plt.close(fig)
    return out.getvalue()


def _draw(
    ax: Any,
    by_slot: dict[tuple[int, int], director.BracketRow],
    low: int,
    start: int,
    count: int,
    high: int,
    matches_in: Any,
) -> None:
    """Rounds low..high of the matches that come from round low's slots start..start+count-1."""
    columns = high - low + 1
    ax.set_xlim(0, columns)
    ax.set_ylim(count * 2, -1)
    y: dict[tuple[int, int], float] = {}
    for k in range(count):
        y[(low, start + k)] = 2 * k + 0.5
    for number in range(low, high + 1):
        col = number - low
        ax.text(col + 0.02, -0.6, _round_name(matches_in(number) * 2), fontsize=9, fontweight="bold", color="#555")
        div = 2 ** (number - low)
        for slot in range(start // div, (start + count) // div):
            if number > low:
                y[(number, slot)] = (y[(number - 1, 2 * slot)] + y[(number - 1, 2 * slot + 1)]) / 2
                for feeder in (2 * slot, 2 * slot + 1):  # the line from the match before
                    fy = y[(number - 1, feeder)]
                    ax.plot(
                        [col - 0.08, col - 0.04, col - 0.04, col],
                        [fy, fy, y[(number, slot)], y[(number, slot)]],
                        color="#999",
                        lw=0.6,
                    )
            _match(ax, col, y[(number, slot)], by_slot[(number, slot)], compact=count > 8)


def _match(ax: Any, x: float, y: float, m: director.BracketRow, compact: bool) -> None:
    size = 6.5 if compact else 8.5
    lines = []
    for k in (0, 1):
        seed = m["seeds"][k]
        player = m["players"][k]
        if k == 1 and m["bye"]:
            lines.append((_("(bye)"), "", False))
            continue
        wins = "" if m["bye"] or player is None or not m["games"] else str(m["wins"][k])
        lines.append(
            (
                "%s %s" % ("" if seed is None else seed, player or "…"),
                wins,
                m["winner"] is not None and m["winner"] == player,
            )
        )
    for k, (who, wins, won) in enumerate(lines):
        line_y = y - 0.32 + 0.64 * k
        ax.text(x + 0.02, line_y, who[:28], fontsize=size, va="center", fontweight="bold" if won else "normal")
        ax.text(x + 0.9, line_y, wins, fontsize=size, va="center", ha="right")
    ax.plot([x, x + 0.92], [y, y], color="#ccc", lw=0.4)
    if m["table"] is not None and not m["bye"]:
        ax.text(
            x + 0.92,
            y - 0.62,
            _("table %(table)s, best of %(n)d") % {"table": m["table"], "n": m["best_of"]},
            fontsize=5.5,
            ha="right",
            color="#777",
        )


def _round_name(left: int) -> str:
    name = game_words.round_name(left)
    return _(name) % left if name == game_words.ROUND_OF else _(name)
