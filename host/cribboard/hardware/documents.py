# The hardware documents, made from the pin maps and layouts: the drilling
# templates and wiring diagrams (SVG), the bill of materials, and the power
# budget of every board and layout (`cribboard hardware docs`).
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from cribboard.hardware.spec import QUIESCENT_MA, load, positions, power
from cribcore.config import Config
from cribcore.game import SKUNK_LINES
from cribcore.layout import Layout

# Where each board takes the 5 V supply.
POWER_IN = {"pico": "VSYS (through a Schottky diode) or VBUS", "feather_rp2040": "USB (its 5 V pin)"}

PITCH_MM = 1000 / 144  # LED spacing of a 144 LEDs/m strip

HOLE_MM = 5.2  # a 5050 LED shows through a 5.2 mm hole

MARGIN_MM = 15

# Littelfuse 215 series (5 x 20 mm, slow blow) part numbers for those ratings.
FUSE_PARTS = {
    500: "0215.500MXP",
    750: "0215.750MXP",
    1000: "0215001.MXP",
    1500: "021501.5MXP",
    2000: "0215002.MXP",
    2500: "021502.5MXP",
    3000: "0215003.MXP",
    4000: "0215004.MXP",
    5000: "0215005.MXP",
}


# --- drawings -------------------------------------------------------------------
def _svg(width_mm: float, height_mm: float, body: str, title: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" width="%.2fmm" height="%.2fmm" viewBox="0 0 %.2f %.2f">\n'
        "<title>%s</title>\n%s</svg>\n" % (width_mm, height_mm, width_mm, height_mm, escape(title), body)
    )


def template(
    layout_data: dict[str, Any], pitch: float = PITCH_MM, hole: float = HOLE_MM, margin: float = MARGIN_MM
) -> str:
    """A 1:1 drilling template: one circle per LED hole (data-led = strip
    index), streets numbered, skunk lines and game holes marked."""
    leds = positions(layout_data)
    Layout(layout_data)  # refuse a broken layout before drawing it
    w = max(p[4] for p in leds) * pitch + 2 * margin
    h = max(p[5] for p in leds) * pitch + 2 * margin + 12  # room for the caption and scale
    parts = [
        '<rect x="0.5" y="0.5" width="%.2f" height="%.2f" fill="none" stroke="#000" stroke-width="0.3"/>\n'
        % (w - 1, h - 1)
    ]
    for index, track, kind, number, x, y in leds:
        cx, cy = margin + x * pitch, margin + y * pitch
        d = hole * (1.3 if kind in ("game", "dealer") else 1.0)
        stroke = "#c00" if kind == "holes" and number in SKUNK_LINES else "#000"
        parts.append(
            '<circle cx="%.3f" cy="%.3f" r="%.3f" fill="none" stroke="%s" stroke-width="0.25" '
            'data-led="%d" data-track="%d" data-kind="%s" data-number="%d"/>\n'
            % (cx, cy, d / 2, stroke, index, track + 1, kind, number)
        )
        parts.append(
            '<line x1="%.3f" y1="%.3f" x2="%.3f" y2="%.3f" stroke="#000" stroke-width="0.15"/>'
            '<line x1="%.3f" y1="%.3f" x2="%.3f" y2="%.3f" stroke="#000" stroke-width="0.15"/>\n'
            % (cx - 0.8, cy, cx + 0.8, cy, cx, cy - 0.8, cx, cy + 0.8)
        )
        if kind == "holes" and (number % 30 == 1 or number in SKUNK_LINES):
            label = "S%d" % ((number - 1) // 30 + 1) if number % 30 == 1 else ""
            if number in SKUNK_LINES:
                label += " skunk %d" % number
            parts.append(
                '<text x="%.3f" y="%.3f" font-size="2.2" font-family="sans-serif" fill="#c00">%s</text>\n'
                % (cx - hole / 2, cy - hole / 2 - 0.6, escape(label.strip()))
            )
    parts.append(
        '<text x="%.2f" y="%.2f" font-size="3" font-family="sans-serif">%s: %d LEDs, pitch %.3f mm, '
        "holes %.1f mm. Print at 100%%: the bar below must measure 100 mm.</text>\n"
        % (margin, h - 12, escape(layout_data["name"]), len(leds), pitch, hole)
    )
    parts.append(
        '<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#000" stroke-width="0.5"/>\n'
        % (margin, h - 7, margin + 100, h - 7)
    )
    parts.append(
        '<text x="%.2f" y="%.2f" font-size="3" font-family="sans-serif">100 mm</text>\n' % (margin + 103, h - 6)
    )
    return _svg(w, h, "".join(parts), "Cribboard drilling template, %s, 1:1" % layout_data["name"])


def _pin_order(p: int | str) -> tuple[str, int]:
    """Pins in board order: numbers as numbers, names by their number (D6 before D10)."""
    if isinstance(p, int):
        return ("", p)
    digits = "".join(c for c in p if c.isdigit())
    return (p.rstrip("0123456789"), int(digits) if digits else -1)


def wiring(board_data: dict[str, Any], layout_data: dict[str, Any], board_name: str) -> str:
    """The wiring diagram: the microcontroller's pins to the buttons and the
    strip, power with fuse and capacitor, and the strip's order."""
    cfg = Config(board_data)
    lay = Layout(layout_data)
    p = power(board_data, layout_data, board_name)
    number = "GP%d" if board_name == "pico" else "GPIO%d"

    def pin(p: int | str) -> str:  # a GPIO number (MicroPython's) or a CircuitPython board name as it is
        return p if isinstance(p, str) else number % p

    rows: list[str] = []

    def text(x: float, y: float, s: str, size: float = 4, colour: str = "#000", anchor: str = "start") -> None:
        rows.append(
            '<text x="%d" y="%d" font-size="%g" font-family="sans-serif" fill="%s" text-anchor="%s">%s'
            "</text>\n" % (x, y, size, colour, anchor, escape(s))
        )

    def line(x1: float, y1: float, x2: float, y2: float, colour: str = "#000", width: float = 0.6) -> None:
        rows.append(
            '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%.1f"/>\n'
            % (x1, y1, x2, y2, colour, width)
        )

    rows.append(
        '<rect x="20" y="30" width="60" height="%d" fill="#eef" stroke="#000" stroke-width="0.8"/>\n'
        % (30 + 12 * len(cfg.buttons))
    )
    text(50, 40, board_name.upper(), 5, anchor="middle")
    y = 55.0
    text(78, y, pin(cfg.strip_pin), 3.5, anchor="end")
    line(80, y - 1, 130, y - 1, "#070", 0.8)
    rows.append('<rect x="130" y="%d" width="20" height="4" fill="#fff" stroke="#000" stroke-width="0.6"/>\n' % (y - 3))
    text(132, y - 5, "330 ohm", 3)
    line(150, y - 1, 200, y - 1, "#070", 0.8)
    text(202, y, "DIN of LED 0 (via a 74AHCT125 level shifter: 3.3 V to 5 V)", 3.5)
    for name in sorted(cfg.buttons, key=lambda n: _pin_order(cfg.buttons[n])):
        y += 12
        text(78, y, pin(cfg.buttons[name]), 3.5, anchor="end")
        line(80, y - 1, 120, y - 1)
        rows.append(
            '<circle cx="122" cy="%d" r="1.2" fill="#000"/><circle cx="134" cy="%d" r="1.2" fill="#000"/>'
            '<line x1="122" y1="%d" x2="133" y2="%d" stroke="#000" stroke-width="0.6"/>\n'
            % (y - 1, y - 1, y - 1, y - 6)
        )
        line(134, y - 1, 150, y - 1)
        text(152, y, "%s button to GND (internal pull-up)" % name, 3.5)
    y += 20
    text(
        20,
        y,
        "Power: 5 V supply -> %d mA fuse -> 5 V rail; GND common to the board, the strip and the supply."
        % p["fuse_ma"],
        3.5,
    )
    text(20, y + 7, "Capacitor: %s. Inject 5 V and GND %s." % (p["capacitor"], p["inject"]), 3.5)
    text(
        20,
        y + 14,
        "The board takes 5 V on %s; budget %d mA for lit LEDs (firmware limiter), %d mA worst case."
        % (POWER_IN.get(board_name, "5V"), p["budget_ma"], p["worst_case_ma"]),
        3.5,
    )
    y += 28
    text(20, y, "LED strip order (%s, %d LEDs):" % (lay.name, lay.n), 4)
    start = 0
    for run in layout_data["runs"]:
        count = abs(run["to"] - run["from"]) + 1 if run["kind"] in ("holes", "points") else 1
        what = {
            "holes": "holes %d-%d" % (run.get("from", 0), run.get("to", 0)),
            "game": "game hole",
            "dealer": "dealer LED",
            "points": "game points %d-%d" % (run.get("from", 0), run.get("to", 0)),
        }
        y += 5.5
        leds = "LED %d" % start if count == 1 else "LED %d-%d" % (start, start + count - 1)
        text(24, y, "%s: track %d %s" % (leds, run["track"] + 1, what[run["kind"]]), 3.2)
        start += count
    return _svg(300, y + 10, "".join(rows), "Cribboard wiring, %s with %s" % (board_name, lay.name))


# --- bill of materials and the generated files ---------------------------------
MCU_PARTS = {
    "pico": ("Raspberry Pi Pico or Pico W (RP2040)", "SC0915 / SC0918"),
    "esp32s3": ("ESP32-S3 DevKitC-1 (N8R8)", "ESP32-S3-DevKitC-1-N8R8"),
    "feather_rp2040": ("Adafruit Feather RP2040 (CircuitPython)", "Adafruit 4884"),
}


def bom(
    board_data: dict[str, Any], layout_data: dict[str, Any], board_name: str
) -> list[tuple[str, int | str, str, str]]:
    """(part, quantity, example part number, purpose) rows."""
    cfg = Config(board_data)
    lay = Layout(layout_data)
    p = power(board_data, layout_data, board_name)
    metres = lay.n / 144
    mcu, mcu_pn = MCU_PARTS[board_name]
    buttons = sorted(n for n in cfg.buttons if n != "P3" or lay.tracks >= 3)  # P3 only with a third track
    return [
        (mcu, 1, mcu_pn, "runs the firmware"),
        (
            "WS2812B LED strip, 144 LEDs/m, 5 V, bare PCB",
            "%d LEDs (%.1f m)" % (lay.n, metres),
            "BTF-LIGHTING WS2812B 144/m IP30",
            "one LED per hole, dealer and game point",
        ),
        ("74AHCT125 quad level shifter (or SN74AHCT1G125)", 1, "SN74AHCT125N", "lifts the 3.3 V data line to 5 V"),
        ("Resistor 330 ohm, 1/4 W", 1, "CFR-25JB-52-330R", "in series with the data line"),
        ("Electrolytic capacitor 1000 uF, 10 V", 1, "UVR1A102MPD", "steadies the strip's 5 V"),
        ("Tactile push button 12 x 12 mm (or arcade button)", len(buttons), "B3F-4055", ", ".join(buttons)),
        (
            "Fuse %d mA, 5 x 20 mm, slow blow, with holder" % p["fuse_ma"],
            1,
            FUSE_PARTS[p["fuse_ma"]],
            "protects the 5 V rail",
        ),
        (
            "5 V supply: %s" % p["supply"],
            1,
            "Raspberry Pi 12.5 W USB-C supply" if "2 A" in p["supply"] else "any USB port or charger",
            "powers board and LEDs",
        ),
        ("Schottky diode 1N5819", 1 if board_name == "pico" else 0, "1N5819", "5 V into VSYS without back-feeding USB"),
        ("Hook-up wire 22 AWG (power), 26 AWG (data, buttons)", "3 m", "", "wiring"),
        ("Panel: 3 mm plywood or acrylic, drilled from the template", 1, "", "the board itself"),
    ]


VARIANTS = (
    ("pico", "2-track"),
    ("pico", "3-track"),
    ("esp32s3", "2-track"),
    ("esp32s3", "3-track"),
    ("feather_rp2040", "2-track"),
    ("feather_rp2040", "3-track"),
)


def generated(hardware_dir: str | Path) -> dict[str, str]:
    """Every generated file: {relative path: text}."""
    hw = Path(hardware_dir)
    out: dict[str, str] = {}
    power_rows: list[dict[str, Any]] = []
    bom_parts = [
        "# Bill of materials\n\nGenerated by `cribboard hardware docs` from the pin maps and "
        "layouts in this folder: do not edit by hand.\n"
    ]
    for board_name, layout_name in VARIANTS:
        board = load(hw / "boards" / (board_name + ".json"))
        layout = load(hw / "layouts" / (layout_name + ".json"))
        out["drawings/wiring-%s-%s.svg" % (board_name, layout_name)] = wiring(board, layout, board_name)
        power_rows.append(power(board, layout, board_name))
        bom_parts.append(
            "\n## %s, %s\n\n| part | quantity | example part number | purpose |\n|---|---|---|---|\n"
            % (MCU_PARTS[board_name][0], layout_name)
        )
        for row in bom(board, layout, board_name):
            if row[1]:
                bom_parts.append("| %s | %s | %s | %s |\n" % row)
    for layout_name in ("2-track", "3-track"):
        out["drawings/template-%s.svg" % layout_name] = template(load(hw / "layouts" / (layout_name + ".json")))
    out["bom.md"] = "".join(bom_parts)
    out["power.md"] = _power_md(power_rows)
    return out


def _power_md(rows: list[dict[str, Any]]) -> str:
    lines = [
        "# Power budget\n",
        "Generated by `cribboard hardware docs` from the pin maps and layouts in this folder, using the",
        "firmware's own palette and current limiter (`firmware/lib/cribapp/render.py`): do not edit by hand.",
        "The limiter keeps every frame's lit LEDs under `current_budget_ma` (less `idle_ma_per_led` for each",
        "LED) from the pin map; the figures below are what that means at the wall.\n",
        "| board | layout | LEDs | dark LEDs (%d mA each) | board | typical frame | busiest frame | worst case "
        "| all white, no limiter | supply | fuse |" % QUIESCENT_MA,
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for p in rows:
        lines.append(
            "| %s | %s | %d | %d mA | %d mA | %d mA | %d mA | %d mA | %d mA | %s | %d mA |"
            % (
                p["board"],
                p["layout"],
                p["leds"],
                p["quiescent_ma"],
                p["mcu_ma"],
                p["typical_ma"],
                p["busiest_frame_ma"],
                p["worst_case_ma"],
                p["all_white_ma"],
                p["supply"],
                p["fuse_ma"],
            )
        )
    p = rows[0]
    lines += [
        "",
        "- **typical frame**: mid-game, the whole board at the wall: every track's front and back peg, two",
        "  game points each, the dealer LED, plus the dark LEDs and the microcontroller.",
        "- **busiest frame**: the most the firmware lights at once (a skunk view on a full street, all",
        "  lines, pegs and game points), after the limiter: LEDs only.",
        "- **worst case**: busiest frame + dark LEDs + microcontroller: size the supply for this.",
        "- **all white**: %d mA per colour channel at full scale (`channel_ma`), every LED: the firmware"
        % p["channel_ma"],
        "  never draws this, but a wiring fault or other firmware could; the fuse is there for it.",
        "- Capacitor: %s." % p["capacitor"],
        "- Data line: %s; a 74AHCT125 lifts the 3.3 V signal to 5 V." % p["data_resistor"],
        "- Power injection: feed 5 V and GND at the strip's start, and at its end as well on strips of",
        "  more than 150 LEDs, with 22 AWG wire; thin strip copper drops voltage along hundreds of LEDs.",
        "- The pin maps set `idle_ma_per_led` to 1, so the limiter leaves room for the dark LEDs inside",
        "  the 500 mA a USB port gives.",
        "",
    ]
    return "\n".join(lines)
