# Race charts of a cribbage game and of a piquet partie: the chart's own
# data (its lines, labels and reference lines), and a PNG written.
import matplotlib.pyplot as plt

from cribboard.reports import plot
from cribcore.match import Match
from cribcore.record import game_record
from cribrules.piquet import PiquetMatch


def steps(fig):
    """The score lines: (label, y values) of each."""
    ax = fig.axes[0]
    return [(line.get_label(), list(line.get_ydata())) for line in ax.get_lines() if line.get_label()[0] != "_"]


def hlines(fig):
    ax = fig.axes[0]
    return sorted(
        {
            line.get_ydata()[0]
            for line in ax.get_lines()
            if line.get_label().startswith("_") and len(set(line.get_ydata())) == 1
        }
    )


def test_a_cribbage_race_chart(tmp_path):
    m = Match()
    for k in range(12):
        m.game.add(k % 2, 11 if k % 2 == 0 else 7)
        m.game.pass_deal()
    while not m.game.over():
        m.game.add(0, 20)
    rec = dict(game_record(m, 0), names=["Ann", "Bob"])
    fig = plot.figure(rec)
    (ann, ann_ys), (bob, bob_ys) = steps(fig)
    assert (ann, bob) == ("Ann (winner)", "Bob")
    race = m.game.race()
    assert ann_ys == [0] + [r[0] for r in race] + [121]
    assert bob_ys == [0] + [r[1] for r in race] + [42]
    assert hlines(fig) == [31, 61, 91, 121]  # the skunk lines and the game hole
    assert fig.axes[0].get_title() == "Game to 121: 121 - 42, double skunk"
    plt.close(fig)
    plot.race(rec, tmp_path / "c.png")
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_piquet_race_chart_runs_past_120(tmp_path):
    m = PiquetMatch()
    for _ in range(6):
        m.game.add(0, 45)
        m.game.add(1, 12)
        m.game.pass_deal()
    assert m.game.scores() == [270, 72]
    fig = plot.figure(game_record(m, 0))
    (first, ys), (second, _) = steps(fig)
    assert (first, second) == ("track 1 (winner)", "track 2")
    assert max(ys) == 270
    assert hlines(fig) == [100]  # the rubicon, not the skunk lines
    assert fig.axes[0].get_ylim()[1] > 270
    plt.close(fig)


def test_the_end_scores_labels_never_overlap_however_close_the_scores():
    assert plot.spread([121, 42], 6) == [121, 42]  # far apart: each at its score
    assert plot.spread([121, 120], 6) == [123.5, 117.5]  # moved apart about their middle
    assert plot.spread([5, 5, 5], 6) == [-1, 5, 11]
    m = Match()
    for points in (24, 24, 24, 24, 23):  # a close game: 121 to 119
        m.game.add(0, points)
        m.game.add(1, points)
    m.game.add(0, 2)
    assert m.game.scores() == [121, 119]
    fig = plot.figure(game_record(m, 0))
    fig.canvas.draw()
    boxes = [t.get_window_extent() for t in fig.axes[0].texts if t.get_text().isdigit()]
    assert len(boxes) == 2 and not boxes[0].overlaps(boxes[1]), boxes
    plt.close(fig)
