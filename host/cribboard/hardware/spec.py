# The hardware's data, read as the firmware reads it: pin maps and LED
# layouts in hardware/, checked by the firmware's own Config and Layout, the
# LEDs placed, and the power figures from its own Renderer (documents.py
# makes the drawings, the bill of materials and the power budget from them).
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cribboard.boardapp import render as rc
from cribboard.errors import CribboardError
from cribboard.text.error_words import said
from cribboard.text.i18n import _
from cribcore.config import Config
from cribcore.game import SKUNK_LINES
from cribcore.layout import GAME_POINT_LEDS, HOLES, Layout

MCU_MA = {"pico": 25, "esp32s3": 60, "feather_rp2040": 25}  # the microcontroller board itself, typical

QUIESCENT_MA = 1  # a WS2812B draws about 1 mA even when dark

FUSES = (500, 750, 1000, 1500, 2000, 2500, 3000, 4000, 5000)


class HardwareError(CribboardError):
    """A mistake in a pin map or layout file the user gave: input (exit 2)."""

    exit_code = 2


class Unreadable(HardwareError):
    """The file could not be read at all: a failure, not a mistake in it (exit 1)."""

    exit_code = 1


FILE_MOST = 1 << 20  # bytes: the biggest layout here is a few KB; a file past this is no layout (/dev/zero)


def load(path: str | Path, _: Callable[[str], str] = _) -> Any:
    try:
        with open(path, "rb") as f:
            raw = f.read(FILE_MOST + 1)
    except OSError as e:
        raise Unreadable(_("cannot read %s: %s") % (path, e.strerror)) from None
    if len(raw) > FILE_MOST:
        raise HardwareError(_("%s is over %d bytes: no layout or pin map is that big") % (path, FILE_MOST))
    try:
        return json.loads(raw.decode("utf-8"))
    except ValueError as e:  # (a UnicodeDecodeError is one)
        raise HardwareError(_("%s is not valid JSON: %s") % (path, e)) from None
    except RecursionError:
        raise HardwareError(_("%s is not valid JSON: nested too deep") % path) from None


def check(path: str | Path, _: Callable[[str], str] = _) -> str:
    """Check a layout or a pin map file; returns a one-line summary. Every
    mistake is a HardwareError that says what is wrong in plain words (in
    the reader's language, or _'s: i18n.english for JSON)."""
    data = load(path, _)
    if not isinstance(data, dict):
        raise HardwareError(_("%s: expected a JSON object (see hardware/layouts or hardware/boards)") % path)
    try:
        if "runs" in data:
            lay = Layout(data)
            return _("%(file)s: layout %(name)s is good: %(tracks)d tracks, %(leds)d LEDs, every hole on one LED") % {
                "file": path,
                "name": lay.name,
                "tracks": lay.tracks,
                "leds": lay.n,
            }
        if "buttons" in data:
            cfg = Config(data)
            return _("%(file)s: pin map %(name)s is good: LED strip on pin %(pin)s, buttons %(buttons)s") % {
                "file": path,
                "name": cfg.name,
                "pin": cfg.strip_pin,
                "buttons": ", ".join("%s=%s" % kv for kv in sorted(cfg.buttons.items())),
            }
    except ValueError as e:
        raise HardwareError("%s: %s" % (path, said(e, _))) from None
    raise HardwareError(_("%s: neither a layout (it has no 'runs') nor a pin map (it has no 'buttons')") % path)


def positions(layout_data: dict[str, Any]) -> list[tuple[int, int, str, int, float, float]]:
    """(strip index, track, role, number, x, y) for every LED, in strip order."""
    out: list[tuple[int, int, str, int, float, float]] = []
    for run in layout_data["runs"]:
        kind = run["kind"]
        if kind in ("holes", "points"):
            step = 1 if run["to"] >= run["from"] else -1
            numbers = list(range(run["from"], run["to"] + step, step))
        else:
            numbers = [HOLES if kind == "game" else 0]
        for k, number in enumerate(numbers):
            out.append(
                (len(out), run["track"], kind, number, run["x"] + k * run.get("dx", 0), run["y"] + k * run.get("dy", 0))
            )
    return out


# --- power --------------------------------------------------------------------
class _Sink:
    def __init__(self, n: int) -> None:
        self.n = n

    def __setitem__(self, i: int, rgb: tuple[int, int, int]) -> None:
        pass

    def write(self) -> None:
        pass


def _frame_ma(layout: Layout, cfg: Config, draw: Callable[[rc.Renderer], None]) -> float:
    r = rc.Renderer(layout, _Sink(layout.n), cfg)
    r.begin()
    draw(r)
    r.finish()
    return r.last_ua / 1000


def power(board_data: dict[str, Any], layout_data: dict[str, Any], board_name: str) -> dict[str, Any]:
    """The power budget, from the firmware's own limiter and palette."""
    cfg = Config(board_data)
    lay = Layout(layout_data)
    n = lay.n
    quiescent = QUIESCENT_MA * n
    mcu = MCU_MA.get(board_name, 60)

    def typical(r: rc.Renderer) -> None:  # mid-game: front and back pegs, dealer, game points
        for t in range(lay.tracks):
            r.hole(t, 60 + 7 * t, rc.FRONT + t)
            r.hole(t, 52 + 7 * t, rc.BACK + t)
            r.points(t, 2, rc.POINT + t)
        r.dealer(0)

    def busiest(r: rc.Renderer) -> None:  # the skunk view on the fullest street, all pegs, all points
        r.span(0, 1, 30, rc.ZONE)
        for t in range(lay.tracks):
            for line in SKUNK_LINES:
                r.hole(t, line, rc.LINE)
            r.hole(t, 120, rc.FRONT + t)
            r.points(t, GAME_POINT_LEDS, rc.POINT + t)
            r.dealer(t)

    all_white = n * 3 * cfg.channel_ma
    limited = _frame_ma(lay, cfg, busiest)  # the limiter has had its say
    worst = quiescent + mcu + limited
    fuse = next((f for f in FUSES if f >= worst * 1.5), FUSES[-1])
    return {
        "board": board_name,
        "layout": lay.name,
        "leds": n,
        "channel_ma": cfg.channel_ma,
        "budget_ma": cfg.budget_ma,
        "idle_ma_per_led": cfg.idle_ma_per_led,
        "quiescent_ma": quiescent,
        "mcu_ma": mcu,
        "typical_ma": round(quiescent + mcu + _frame_ma(lay, cfg, typical)),
        "busiest_frame_ma": round(_frame_ma(lay, cfg, busiest)),
        "worst_case_ma": round(worst),
        "all_white_ma": all_white,
        "supply": "USB (5 V, 500 mA)" if worst <= 500 else "a 5 V 2 A supply (more than USB's 500 mA)",
        "fuse_ma": fuse,
        "capacitor": "1000 uF, 6.3 V or more, across 5 V and GND where power enters the strip",
        "data_resistor": "330 ohm in series with the data line, next to the first LED",
        "inject": "at LED 0" + (" and at LED %d" % (n - 1) if n > 150 else ""),
    }
