# Race charts of a cribbage game and of a piquet partie.
from cribboard import plot
from cribcore.match import Match
from cribcore.piquet import PiquetMatch
from cribcore.record import game_record


def png_ok(path):
    data = path.read_bytes()
    return data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000


def test_a_cribbage_race_chart(tmp_path):
    m = Match()
    for k in range(12):
        m.game.add(k % 2, 11 if k % 2 == 0 else 7)
        m.game.pass_deal()
    while not m.game.over():
        m.game.add(0, 20)
    plot.race(game_record(m, 0), tmp_path / "c.png")
    assert png_ok(tmp_path / "c.png")


def test_a_piquet_race_chart_runs_past_120(tmp_path):
    m = PiquetMatch()
    for _ in range(6):
        m.game.add(0, 45)
        m.game.add(1, 12)
        m.game.pass_deal()
    assert m.game.scores() == [270, 72]
    plot.race(game_record(m, 0), tmp_path / "p.png")
    assert png_ok(tmp_path / "p.png")
