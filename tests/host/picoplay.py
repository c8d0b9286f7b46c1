# Playing the emulated Pico (pico.py) as a table would: its buttons by GPIO
# pin, held for as long as a number of points takes, and what the board
# shows and keeps read back through its strip and its serial link.
import json
import time

from deadline import WAIT_S

from cribboard.link.client import BoardLink
from cribboard.resources import layout_file
from cribcore.layout import Layout

PINS = {"P1": 2, "P2": 3, "P3": 4, "UNDO": 5, "SKUNK": 6, "OK": 7}  # hardware/boards/pico.json
SETTLE_MS = 300  # after a release: the board has saved and drawn by then, on the emulated clock

# Whole games as (track, points) in the order the table enters them; track 1
# (index 0) reaches 121 first.
TWO_PLAYERS = [(1, 15), (0, 29), (1, 15), (0, 29), (1, 15), (0, 29), (1, 15), (0, 29), (0, 5)]
THREE_PLAYERS = [(1, 20), (2, 25), (0, 29), (1, 20), (2, 25), (0, 29), (1, 20), (2, 25), (0, 29), (0, 29), (0, 5)]


def hold_ms(points):
    """How long to hold a point button for `points` (cribapp.button: the press,
    repeats at 0.5, 0.75, 1.0, 1.25 and 1.5 s, then every 0.1 s), the release
    half-way between two repeats so a loop pass's jitter cannot add or drop one."""
    if points == 1:
        return 60
    if points <= 5:
        return 500 + 250 * (points - 2) + 125
    return 1500 + 100 * (points - 6) + 50


def enter(pico, track, points):
    """One entry: track's point button held for `points`, then OK."""
    pico.hw.press(PINS["P%d" % (track + 1)], hold_ms(points), 30)
    return pico.hw.press(PINS["OK"], 60, SETTLE_MS)


def tap(pico, name, ms=60):
    return pico.hw.press(PINS[name], ms, SETTLE_MS)


def choose_players(pico, players):
    """The menu (hold OK): P1 twice to the players item, P2 from 2 on to
    `players` (2, 3, 4 on a 3-track board), OK applies: a new match."""
    tap(pico, "OK", 900)
    for name in ["P1", "P1"] + ["P2"] * (players - 2) + ["OK"]:
        tap(pico, name)


def state(pico, timeout=WAIT_S):
    """The board's saved state, asked over its serial link (STATE)."""
    link = BoardLink(pico.port, timeout=timeout)
    try:
        link.hello()
        return link.state()
    finally:
        link.close()


def layout(name="2-track"):
    return Layout(json.loads(layout_file(name).read_text()))


def _red(led):
    return led[0] > 0 and led[1] == led[2] == 0


def shows_error(pico, lay, code, seconds=WAIT_S):
    """The error pattern `code` blinks: track 1's first `code` game-point
    LEDs red in a frame, its others not (cribapp.codes)."""
    points = lay.points[0]
    deadline = time.monotonic() + seconds
    frames = 0
    while time.monotonic() < deadline and pico.hw.alive():
        leds = pico.hw.leds()
        if leds and [_red(leds[i]) for i in points] == [k < code for k in range(len(points))]:
            return True
        frames = pico.hw.wait_frame(frames, max(0.0, deadline - time.monotonic()))
    return False


def shows_deploy_error(pico, lay, seconds=WAIT_S):
    """Track 1's first six game-point LEDs blink red (the deploy-error
    pattern, drawn by main.py alone), and nothing else is lit."""
    points = set(lay.points[0][:6])
    deadline = time.monotonic() + seconds
    frames = 0
    while time.monotonic() < deadline:
        frames = pico.hw.wait_frame(frames, max(0.0, deadline - time.monotonic()))
        leds = pico.hw.leds()
        lit = {i for i, c in enumerate(leds) if c != [0, 0, 0]}
        if lit == points and all(_red(leds[i]) for i in points):
            return True
        if not pico.hw.alive():
            return False
    return False
