# LED layouts and board configs from hardware/: every hole on exactly one
# LED, the strip as long as the layout says, and plain errors for mistakes.
import json
import os

from cribcore.config import Config
from cribcore.layout import GAME_POINT_LEDS, HOLES, NO_LED, Layout
from cribcore.layoutfile import standard

from check import raises

HARDWARE = "hardware"


def load(path):
    with open(path) as f:
        return json.loads(f.read())


def layout_files():
    folder = HARDWARE + "/layouts"
    return [folder + "/" + n for n in sorted(os.listdir(folder)) if n.endswith(".json")]


def test_every_layout_maps_each_hole_to_one_led():
    files = layout_files()
    assert len(files) >= 2
    for path in files:
        data = load(path)
        lay = Layout(data)
        used = []
        for t in range(lay.tracks):
            for h in range(1, HOLES + 1):
                used.append(lay.hole[t][h])
            used.append(lay.dealer[t])
            for k in range(GAME_POINT_LEDS):
                used.append(lay.points[t][k])
        assert NO_LED not in used, path
        assert len(used) == lay.n == data["leds"], path
        assert sorted(used) == list(range(lay.n)), path  # every index once, none twice


def test_layout_files_are_the_reference_boards():
    for tracks in (2, 3):
        data = load("%s/layouts/%d-track.json" % (HARDWARE, tracks))
        ref = standard(tracks)
        for key in ("name", "tracks", "leds", "runs"):
            assert data[key] == ref[key], (tracks, key)


def test_serpentine_rows_run_both_ways():
    lay = Layout(standard(2))
    # Track 1's first street is wired right to left: hole 1 is the row's last LED.
    assert lay.hole[0][1] == 0
    assert lay.hole[0][30] == 29
    assert lay.hole[1][30] == 30
    assert lay.hole[1][1] == 59
    # Streets turn: hole 31 sits above hole 30, at the same end of the board.
    assert lay.hole[0][31] == 89
    assert lay.hole[0][60] == 60


def broken(change):
    data = standard(2)
    change(data)
    return data


def test_layout_mistakes_are_explained():
    def drop_run(d):
        del d["runs"][0]

    def double(d):
        d["runs"][1]["track"] = 0

    def long_strip(d):
        d["leds"] += 1

    def kind(d):
        d["runs"][0]["kind"] = "hole"

    def hole_range(d):
        d["runs"][0]["to"] = 131

    def missing_hole(d):
        d["runs"][1]["to"] = 2  # track 2's row stops one LED short
        d["leds"] -= 1

    for change, words in (
        (drop_run, "the runs place 228"),
        (double, "two LEDs"),
        (long_strip, "says 259"),
        (kind, "unknown kind"),
        (hole_range, "1..120"),
        (missing_hole, "track 2 hole 1 has no LED"),
    ):
        msg = raises(ValueError, Layout, broken(change))
        assert words in msg, (words, msg)


def test_board_configs_parse_and_use_each_pin_once():
    for name in ("pico", "esp32s3"):
        cfg = Config(load("%s/boards/%s.json" % (HARDWARE, name)))
        assert cfg.budget_ma == 500
        assert cfg.channel_ma == 20
        pins = list(cfg.buttons.values()) + [cfg.strip_pin]
        assert len(pins) == len(set(pins)) == 7


def test_config_mistakes_are_explained():
    base = load(HARDWARE + "/boards/pico.json")

    def with_(key, value):
        d = dict(base)
        d[key] = value
        return d

    assert "two things" in raises(ValueError, Config, with_("buttons", {"P1": 2, "P2": 2}))
    assert "LED strip" in raises(ValueError, Config, with_("strip_pin", 2))
    assert "unknown button" in raises(ValueError, Config, with_("buttons", {"P9": 9}))
    assert "no pin for button OK" in raises(
        ValueError, Config, with_("buttons", {"P1": 2, "P2": 3, "UNDO": 5, "SKUNK": 6})
    )
    assert "current_budget_ma" in raises(ValueError, Config, with_("current_budget_ma", "lots"))
    assert Config().buttons["OK"] == 7  # defaults when a board has no config
    short = Config({"buttons": {"P1": 10, "P2": 11, "UNDO": 12, "SKUNK": 13, "OK": 14}})
    assert (short.budget_ma, short.channel_ma, short.strip_pin) == (500, 20, 0)  # left out: defaults


def test_a_circuitpython_pin_map_names_its_pins():
    named = Config({"strip_pin": "D5", "buttons": {"P1": "D6", "P2": "D9", "UNDO": "D10", "SKUNK": "D11", "OK": "D12"}})
    assert named.strip_pin == "D5"
    assert named.buttons["OK"] == "D12"
    assert "two things" in raises(ValueError, Config, {"strip_pin": "D5", "buttons": {"P1": "D5"}})
    for bad in ("", "D 5", "GP2;", "x" * 17, 100, -1, True, 2.5, None):
        assert "must be a pin" in raises(ValueError, Config, {"strip_pin": bad, "buttons": {}}), bad
