# The race chart of one game: every side's score after each entry, with the
# streets and the skunk lines drawn in.
import matplotlib

matplotlib.use("Agg")  # files only: no screen needed

import matplotlib.pyplot as plt

from cribcore.record import load_game

TRACK_COLOURS = ("#e0401a", "#1a5ae0", "#1aa03c")


def race(record, out_path, title=None):
    g = load_game(record)
    rows = g.race()
    sides = g.sides
    fig, ax = plt.subplots(figsize=(10, 5.5), dpi=110)
    # One more x than entries so the last entry's step shows too.
    xs = list(range(len(rows) + 2))
    for s in range(sides):
        ys = [0] + [r[s] for r in rows]
        ys.append(ys[-1])
        label = "track %d%s" % (s + 1, " (winner)" if s == g.winner() else "")
        ax.step(xs, ys, where="post", color=TRACK_COLOURS[s], linewidth=2.2, label=label)
        ax.annotate(str(ys[-1]), (xs[-1], ys[-1]), textcoords="offset points", xytext=(6, -4),
                    color=TRACK_COLOURS[s], fontweight="bold")
    for low in (30, 90):  # every other street shaded, as a board's are marked
        if low < g.target:
            ax.axhspan(low, min(low + 30, g.target), color="#000", alpha=0.04, linewidth=0)
    lines = (31,) if g.target == 61 else (31, 61, 91)
    for line in lines:
        ax.axhline(line, color="#c22", linewidth=1, linestyle="--")
        ax.text(0.2, line + 1, "skunk line %d" % line, color="#c22", fontsize=8)
    ax.axhline(g.target, color="#222", linewidth=1.4)
    ax.set_ylim(0, g.target + 6)
    ax.set_xlim(0, max(1, len(rows)) + 4)
    ax.set_xlabel("entry")
    ax.set_ylabel("score")
    skunk = ("", ", skunk", ", double skunk", ", triple skunk")[g.skunk() or 0]
    ax.set_title(title or "Game to %d: %s%s" % (g.target, " - ".join(str(s) for s in g.scores()), skunk))
    ax.legend(loc="upper left")
    ax.grid(axis="x", alpha=0.2)
    fig.tight_layout()
    fig.savefig(out_path)
    plt.close(fig)
