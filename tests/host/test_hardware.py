# The hardware package is generated from the same data the firmware reads:
# regenerating it must give the committed files, and the drawings must
# match the layouts LED for LED.
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from deadline import COMMAND_S

from cribboard.hardware import documents, spec
from cribcore.config import Config
from cribcore.layout import Layout

HW = Path(__file__).resolve().parents[2] / "hardware"
SVG = "{http://www.w3.org/2000/svg}"


def test_the_committed_files_are_what_the_data_makes():
    for name, text in documents.generated(HW).items():
        assert (HW / name).read_text() == text, "%s drifted: run `cribboard hardware docs`" % name


def test_templates_have_one_hole_per_led_in_strip_order():
    for layout_name in ("2-track", "3-track"):
        data = json.loads((HW / "layouts" / (layout_name + ".json")).read_text())
        lay = Layout(data)
        root = ET.fromstring((HW / "drawings" / ("template-%s.svg" % layout_name)).read_text())
        assert root.tag == SVG + "svg"
        assert root.get("width").endswith("mm")
        holes = [c for c in root.iter(SVG + "circle") if c.get("data-led") is not None]
        assert [int(c.get("data-led")) for c in holes] == list(range(lay.n))
        for c in holes:
            t, kind, number, led = (
                int(c.get("data-track")) - 1,
                c.get("data-kind"),
                int(c.get("data-number")),
                int(c.get("data-led")),
            )
            if kind in ("holes", "game"):
                assert lay.hole[t][number] == led
            elif kind == "dealer":
                assert lay.dealer[t] == led
            else:
                assert lay.points[t][number - 1] == led
        skunk = [c for c in holes if c.get("stroke") == "#c00"]
        assert sorted(int(c.get("data-number")) for c in skunk) == sorted([31, 61, 91] * lay.tracks)


def test_wiring_shows_every_pin_of_the_pin_map():
    for board in ("pico", "esp32s3", "feather_rp2040"):
        cfg = Config(json.loads((HW / "boards" / (board + ".json")).read_text()))
        text = (HW / "drawings" / ("wiring-%s-2-track.svg" % board)).read_text()
        ET.fromstring(text)
        prefix = {"pico": "GP", "esp32s3": "GPIO"}.get(board, "")  # CircuitPython's pins go by name

        def label(pin, prefix=prefix):
            return pin if isinstance(pin, str) else "%s%d" % (prefix, pin)

        for name, pin in cfg.buttons.items():
            assert ">%s</text>" % label(pin) in text
            assert "%s button" % name in text
        assert ">%s</text>" % label(cfg.strip_pin) in text
        assert "LED 0-29: track 1 holes 1-30" in text
    feather = (HW / "drawings" / "wiring-feather_rp2040-2-track.svg").read_text()
    assert feather.index(">D6<") < feather.index(">D9<") < feather.index(">D13<")  # in board order, not text order


def test_power_figures_come_from_the_firmware_limiter():
    for board, layout in documents.VARIANTS:
        b = json.loads((HW / "boards" / (board + ".json")).read_text())
        lay = json.loads((HW / "layouts" / (layout + ".json")).read_text())
        p = spec.power(b, lay, board)
        cfg = Config(b)
        assert p["busiest_frame_ma"] <= cfg.budget_ma - cfg.idle_ma_per_led * p["leds"]
        assert p["quiescent_ma"] == p["leds"]
        assert p["all_white_ma"] == p["leds"] * 60
        assert p["typical_ma"] < p["worst_case_ma"] < p["fuse_ma"]
        # With a bigger budget the limiter lets the busiest frame draw more.
        p2 = spec.power(dict(b, current_budget_ma=2000), lay, board)
        assert p2["busiest_frame_ma"] >= p["busiest_frame_ma"]
    assert "| pico | 2-track | 258 |" in (HW / "power.md").read_text()


def run_check(*files):
    return subprocess.run(
        [sys.executable, "-m", "cribboard.cli", "hardware", "check", *files],
        capture_output=True,
        text=True,
        timeout=COMMAND_S,
    )


def test_hardware_check_takes_a_circuitpython_pin_map_with_named_pins(tmp_path):
    feather = {
        "name": "feather_rp2040",
        "strip_pin": "D5",
        "layout": "2-track",
        "buttons": {"P1": "D6", "P2": "D9", "UNDO": "D10", "SKUNK": "D11", "OK": "D12"},
    }
    (tmp_path / "feather.json").write_text(json.dumps(feather))
    ok = run_check(str(tmp_path / "feather.json"))
    assert ok.returncode == 0
    assert "LED strip on pin D5" in ok.stdout
    assert "OK=D12" in ok.stdout


def test_hardware_check_explains_mistakes(tmp_path):
    ok = run_check(str(HW / "layouts" / "3-track.json"), str(HW / "boards" / "esp32s3.json"))
    assert ok.returncode == 0
    assert "387 LEDs" in ok.stdout
    assert "OK=17" in ok.stdout
    layout = json.loads((HW / "layouts" / "2-track.json").read_text())
    layout["runs"][3]["track"] = 0  # one row wired to the wrong track
    (tmp_path / "mine.json").write_text(json.dumps(layout))
    pins = json.loads((HW / "boards" / "pico.json").read_text())
    pins["buttons"]["OK"] = pins["strip_pin"]
    (tmp_path / "pins.json").write_text(json.dumps(pins))
    (tmp_path / "junk.json").write_text("{nope")
    bad = run_check(str(tmp_path / "mine.json"), str(tmp_path / "pins.json"), str(tmp_path / "junk.json"))
    assert bad.returncode == 2  # mistakes in what was given: input
    missing = run_check(str(tmp_path / "no-such.json"))
    assert missing.returncode == 1
    assert "cannot read" in missing.stderr
    lines = bad.stderr.splitlines()
    assert len(lines) == 3
    assert all(line.startswith("cribboard: error: ") for line in lines)
    assert "track 1 hole 31 is on two LEDs" in lines[0]
    assert "pin 0 is given to two things (the LED strip and OK)" in lines[1]
    assert "not valid JSON" in lines[2]
