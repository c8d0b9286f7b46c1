# Power cuts on the real RP2040 port (the emulated Pico, tests/rp2040) at
# chosen moments of a game, inside its flash driver's erases and programs
# too: what only the real port's flash shows. The faults that both boards
# meet (a hang, a held button, a deploy cut, a flash whose board stops
# answering, a REPL's echo) are in test_faults.py, on both.
import shutil
import sys

import pytest
from pico import Pico
from picoplay import enter, layout, state

from cribboard.sim.hwlink import HwLinkError

pytestmark = [
    pytest.mark.pico,
    pytest.mark.skipif(sys.platform != "linux", reason="pseudo-terminals and rp2040js as set up here"),
]


@pytest.fixture
def flash(pico_image, tmp_path):
    """A copy of a flashed Pico's flash (powered off)."""
    copy = tmp_path / "flash.bin"
    shutil.copy(pico_image, copy)
    return copy


@pytest.fixture
def pico(flash):
    """That flashed Pico, powered up and showing its first frame."""
    board = Pico(flash).start()
    board.first_frame()
    yield board
    board.stop()


def entries_kept(events):
    return [(e[0], e[1]) for e in events]


def check_kept(pico, confirmed, in_flight):
    """After a power cut: every confirmed entry is there, the one in flight whole or not at all."""
    pico.start()
    pico.first_frame()
    kept = entries_kept(state(pico)["events"])
    assert kept in (confirmed, confirmed + [in_flight]), (kept, confirmed, in_flight)
    lay = layout()
    leds = pico.hw.leds()
    for track in (0, 1):  # and the board shows it: each front peg at its track's score
        score = sum(p for t, p in kept if t == track)
        if score:
            assert leds[lay.hole[track][score]] != [0, 0, 0], (track, score)
    return kept


# The cuts: ("ops", n) after the board's nth flash erase or program from the
# moment it is armed (an entry's save is three programs, and LittleFS erases
# a block every few saves), ("erase", 0) right after the next erase, before
# its program, ("time", ms) ms of the board's time into the next entry, and
# ("boot", n) the nth flash operation of a power-up (its own save).
CUTS = [
    ("ops", 1),
    ("time", 40),
    ("ops", 2),
    ("erase", 0),
    ("ops", 3),
    ("time", 700),
    ("ops", 4),
    ("boot", 1),
    ("ops", 5),
    ("time", 1200),
    ("erase", 0),
    ("ops", 7),
    ("time", 1700),
    ("boot", 2),
    ("ops", 9),
    ("erase", 0),
    ("time", 2600),
    ("ops", 11),
    ("boot", 3),
    ("time", 3100),
]


def test_twenty_power_cuts_spread_over_a_game_lose_no_confirmed_entry(flash):
    assert len(CUTS) == 20
    pico = Pico(flash)
    confirmed = []
    k = 0
    try:
        pico.start()
        pico.first_frame()
        for kind, n in CUTS:
            if kind == "boot":  # cut the power-up's own save: stop, then start armed
                pico.stop()
                pico.start(env={"PICO_CUT_OPS": str(n)})
                assert pico.died(60), "the power-up saved nothing"
                pico.stop()
                confirmed = check_kept(pico, confirmed, None)
                continue
            if kind == "ops":
                pico.cut_after_flash_ops(n)
            elif kind == "erase":
                pico.cut_after_erase()
            in_flight = None
            for _ in range(12):  # an erase comes every few saves
                track, points = k % 2, 1 + k % 5  # small entries: no one wins in twenty cuts
                k += 1
                in_flight = (track, points)
                if kind == "time":
                    pico.cut_in(n)
                try:
                    enter(pico, track, points)
                except HwLinkError:
                    break  # the power went during this entry
                confirmed.append(in_flight)
                in_flight = None
                if kind == "time":  # the cut came after the entry: between entries
                    assert pico.died(30)
                    break
            else:
                raise AssertionError("no cut in twelve entries: %s %s" % (kind, n))
            pico.stop()
            confirmed = check_kept(pico, confirmed, in_flight)
        assert len(confirmed) >= 10  # the game went on between the cuts
    finally:
        pico.stop()
