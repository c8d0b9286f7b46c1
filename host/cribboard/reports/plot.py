# The race chart of one game: every side's score after each entry, with the
# streets and the skunk lines (or piquet's rubicon) drawn in.
from collections.abc import Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no screen needed

import matplotlib.pyplot as plt

from cribboard.text.i18n import _
from cribrules.piquet import RUBICON, PiquetGame
from cribrules.replay import load_game

TRACK_COLOURS = ("#e0401a", "#1a5ae0", "#1aa03c")


def _game(record: dict[str, Any]) -> Any:
    if record.get("game") == "piquet":
        g = PiquetGame(record["dealer"])
        g.load(record["events"], len(record["events"]))
        return g
    return load_game(record)


def spread(values: Sequence[float], gap: float) -> list[float]:
    """Where to put a label beside each value: at the value, but each at least gap from the others,
    moved apart about their middle, in the values' order."""
    order = sorted(range(len(values)), key=lambda k: values[k])
    at = [float(values[k]) for k in order]
    for i in range(1, len(at)):
        at[i] = max(at[i], at[i - 1] + gap)
    shift = (sum(values[k] for k in order) - sum(at)) / len(at) if at else 0.0
    placed = [0.0] * len(values)
    for i, k in enumerate(order):
        placed[k] = at[i] + shift
    return placed


def race(record: dict[str, Any], out_path: str, title: str | None = None) -> None:
    """Draw the race chart of a game's record into a PNG (cribbage games and
    piquet parties alike): drawn in memory, then written with every step
    checked (cribboard.reports.outfile)."""
    import io

    from cribboard.reports import outfile

    fig = figure(record, title)
    png = io.BytesIO()
    fig.savefig(png, format="png")
    plt.close(fig)
    outfile.write(out_path, png.getvalue())


def figure(record: dict[str, Any], title: str | None = None) -> Any:
    """The chart: one step line a track (its score after each entry, named
    after its player), the streets shaded, the skunk lines or, for piquet
    (no target: its totals run on), the rubicon."""
    g = _game(record)
    names = record.get("names") or []
    rows = g.race()
    sides = g.sides
    fig, ax = plt.subplots(figsize=(10, 5.5), dpi=110)
    # One more x than entries so the last entry's step shows too.
    xs = list(range(len(rows) + 2))
    top = g.target or max([max(r) for r in rows] + [RUBICON]) + 10
    finals = [rows[-1][s] if rows else 0 for s in range(sides)]
    # The end scores' labels, moved apart where the scores are close (121 and 119 would print one on the
    # other): a label's height is about 4.5% of the axis at this size.
    at = spread(finals, (top + 6) * 0.045)
    for s in range(sides):
        ys = [0] + [r[s] for r in rows]
        ys.append(ys[-1])
        who = names[s] if s < len(names) else _("track %d") % (s + 1)
        label = _("%s (winner)") % who if s == g.winner() else who
        ax.step(xs, ys, where="post", color=TRACK_COLOURS[s], linewidth=2.2, label=label)
        ax.annotate(
            str(ys[-1]),
            (xs[-1], ys[-1]),
            xytext=(xs[-1] + 0.3, at[s]),
            va="center",
            color=TRACK_COLOURS[s],
            fontweight="bold",
        )
    for low in range(30, top, 60):  # every other street shaded, as a board's are marked
        ax.axhspan(low, min(low + 30, top), color="#000", alpha=0.04, linewidth=0)
    if g.target:
        lines = [(line, _("skunk line %d") % line) for line in g.lines()]
        ax.axhline(g.target, color="#222", linewidth=1.4)
    else:
        lines = [(RUBICON, _("rubicon %d") % RUBICON)]
    for line, label in lines:
        ax.axhline(line, color="#c22", linewidth=1, linestyle="--")
        ax.text(0.2, line + 1, label, color="#c22", fontsize=8)
    ax.set_ylim(0, top + 6)
    ax.set_xlim(0, max(1, len(rows)) + 4)
    ax.set_xlabel(_("entry"))
    ax.set_ylabel(_("score"))
    skunk = ("", _(", skunk"), _(", double skunk"), _(", triple skunk"))[g.skunk() or 0]
    what = _("Game to %d") % g.target if g.target else _("Piquet partie")
    ax.set_title(title or "%s: %s%s" % (what, " - ".join(str(s) for s in g.scores()), skunk))
    ax.legend(loc="upper left")
    ax.grid(axis="x", alpha=0.2)
    fig.tight_layout()
    return fig
