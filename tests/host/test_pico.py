# The user's path on a real RP2040 port (MicroPython v1.28.0 for the Pico,
# emulated by rp2040js: tests/rp2040): a Pico with only MicroPython on it,
# `cribboard flash` through the command, the app boots, buttons on its GPIO
# pins enter points and the strip's frames (decoded off GPIO 0) show them,
# `cribboard sync` talks to it, and a power cut keeps the entry.
import json
import shutil
import sys

import pytest
from clirun import cli, one_line_error
from deadline import WAIT_S
from pico import Pico

from cribcore.layout import Layout

P1, OK = 2, 7  # hardware/boards/pico.json

pytestmark = [
    pytest.mark.pico,
    pytest.mark.skipif(sys.platform != "linux", reason="pseudo-terminals and rp2040js as set up here"),
]


def counted(leds, index):
    """LED index shows track 1's peg: its red-orange, not the paler blink of points still pending."""
    r, _g, b = leds[index] if index < len(leds) else (0, 0, 0)
    return r > 0 and b == 0


@pytest.fixture
def pico(tmp_path):
    board = Pico(tmp_path / "flash.bin").start()
    yield board
    board.stop()


def test_a_blank_pico_is_flashed_boots_the_app_and_syncs(pico, tmp_path):
    db = str(tmp_path / "games.db")
    blank = one_line_error(cli("sync", "--port", pico.port, "--db", db, timeout=120))
    assert "answers as MicroPython's REPL, not the Cribboard program" in blank
    assert "cribboard flash --port" in blank
    done = cli("flash", "--port", pico.port, "--json", timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["previous_deploy"] is None
    assert "main.py" in result["written"]
    assert result["bytecode"]
    # The Pico's image has no network module: the WiFi sender is left off (a folder costs every power-up).
    assert not [f for f in result["written"] if f.startswith(("lib/cribclub/", "lib/cribcore/clubwire."))]
    assert {"lib/cribapp/app.mpy", "lib/cribmp/start.mpy", "lib/cribcore/serialwire.mpy"} <= set(result["written"])
    synced = cli("sync", "--port", pico.port, "--db", db, "--json", timeout=120)
    assert synced.returncode == 0, synced.stderr
    board = json.loads(synced.stdout)["board"]
    assert len(board) == 16  # every hex digit of the chip's id kept
    hole3 = 2  # track 1's hole 3 is the strip's third LED (hardware/layouts/2-track.json)
    for _ in range(3):
        pico.press(P1)
    frame = pico.press(OK)  # counts the three points: drawn as track 1's peg, then saved
    while not counted(pico.hw.leds(), hole3):  # (the pending points blink in a paler colour)
        assert pico.hw.wait_frame(frame, WAIT_S) > frame, "no frame shows the points counted"
        frame = pico.hw.frames
    pico.hw.idle(P1, 300)  # the save follows the frame by tens of ms (docs/decisions.md, "Drawn first")
    pico.stop()  # a power cut
    pico.start()
    pico.hw.wait_frame(0, WAIT_S)
    assert counted(pico.hw.leds(), hole3)  # the entry survived it
    again = cli("sync", "--port", pico.port, "--db", db, "--json", timeout=120)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["board"] == board
    up_to_date = cli("flash", "--port", pico.port, "--json", timeout=300)
    assert up_to_date.returncode == 0
    assert json.loads(up_to_date.stdout)["written"] == []


# Steady moments of a game (nothing blinks: no points pending, no error), as
# (GPIO pin, hold ms) presses: three points and OK, five and OK, an undo, two
# and OK, and the deal passed with OK.
P2, UNDO = 3, 5
SCRIPT = [(P1, 60)] * 3 + [(OK, 60)] + [(P2, 60)] * 5 + [(OK, 60), (UNDO, 60)] + [(P2, 60)] * 2 + [(OK, 60), (OK, 60)]
STEADY = (3, 9, 10, 13, 14)  # after these presses (0-based) the board shows no blink


def test_the_real_port_draws_what_the_unix_port_draws(pico_image, tmp_path):
    """One differential test: the same presses on the simulated board (the
    firmware on MicroPython's unix port) and on the emulated Pico (the real
    RP2040 port) leave the same LEDs lit in the same colours."""
    from simboard import Board

    shutil.copy(pico_image, tmp_path / "flash.bin")
    pico = Pico(tmp_path / "flash.bin").start()
    pico.ready()
    sim = Board(tmp_path / "sim-flash")
    try:
        seen = {"pico": [], "unix": []}
        for k, (pin, ms) in enumerate(SCRIPT):
            # 300 ms of the board's time after each release: the save and the frame are done by then.
            pico.hw.press(pin, ms, 300)
            sim.sim._hw.press(pin, ms, 300)
            if k in STEADY:
                seen["pico"].append(pico.hw.leds())
                seen["unix"].append(sim.sim.leds())
        assert seen["pico"] == seen["unix"]
        layout = Layout(json.loads((sim.flash / "layout.json").read_text()))
        lit = sorted(i for i, c in enumerate(seen["pico"][-1]) if c != [0, 0, 0])
        # A real picture, not two dark strips: track 1 at 3, track 2 at 2 (its 5 undone), and the
        # deal passed once by the last OK: track 2 deals.
        assert lit == sorted([layout.hole[0][3], layout.hole[1][2], layout.dealer[1]])
    finally:
        sim.stop()
        pico.stop()
