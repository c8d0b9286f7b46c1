# Faults on the real RP2040 port (the emulated Pico, tests/rp2040): power cut
# at chosen moments of a game (inside flash writes too), a hang ended by the
# watchdog, a held point button, a flash whose board stops answering, and a
# deploy cut off by a power cut. The long sweeps are marked `sweep`
# (make test-faults).
import json
import shutil
import subprocess
import sys
import time

import pytest
from clirun import cli, one_line_error
from pico import Pico
from picoplay import PINS, enter, layout, shows_deploy_error, state, tap

from cribboard.hwlink import HardwareError

pytestmark = [pytest.mark.pico,
              pytest.mark.skipif(sys.platform != "linux", reason="pseudo-terminals and rp2040js as set up here")]


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
CUTS = [("ops", 1), ("time", 40), ("ops", 2), ("erase", 0), ("ops", 3), ("time", 700), ("ops", 4),
        ("boot", 1), ("ops", 5), ("time", 1200), ("erase", 0), ("ops", 7), ("time", 1700), ("boot", 2),
        ("ops", 9), ("erase", 0), ("time", 2600), ("ops", 11), ("boot", 3), ("time", 3100)]


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
                except HardwareError:
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


def test_a_hang_is_ended_by_the_watchdog_and_the_game_goes_on(pico):
    enter(pico, 0, 3)
    enter(pico, 1, 2)
    boot = state(pico)["boot"]
    frames = pico.hw.frames
    pico.freeze()  # the core stops (interrupts too): nothing feeds the watchdog
    assert pico.hw.wait_frame(frames, 60) > frames, "the board never came back"
    after = state(pico)
    assert after["boot"] == boot + 1  # a restart, by the watchdog: the process never ended
    assert entries_kept(after["events"]) == [(0, 3), (1, 2)]
    enter(pico, 0, 4)
    assert entries_kept(state(pico)["events"])[-1] == (0, 4)


def test_a_point_button_held_past_29_never_splits_the_entry(pico):
    pico.hw.press(PINS["P2"], 6000, 3000)  # the repeats reach 29 in 3.85 s; the idle timer is 2 s
    assert state(pico)["events"] == []  # held: not counted while the button was down, nor after
    tap(pico, "OK")
    assert entries_kept(state(pico)["events"]) == [(1, 29)]


def flash_cut_at(pico, step_no, how):
    """Run `cribboard flash` on the emulated Pico; when it starts its step
    number step_no, make the board stop answering (`how`: "cut", the power
    goes at its next flash write; "freeze", it hangs). Returns (steps seen,
    exit status, stderr, seconds the command took)."""
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "cribboard", "flash", "--port", pico.port],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen, err = [], []
    for line in proc.stderr:
        err.append(line)
        if line.startswith("flash: "):
            seen.append(line.strip())
            if len(seen) == step_no:
                if how == "cut":
                    pico.cut_after_flash_ops(1)
                    pico.unplug_when_dead()  # a board that loses its power leaves the USB bus
                else:
                    pico.freeze()
    code = proc.wait(120)
    return seen, code, "".join(err), time.monotonic() - started


def test_a_flash_whose_board_stops_answering_ends_with_an_error_and_the_next_flash_repairs(pico):
    _seen, code, err, took = flash_cut_at(pico, 2, "freeze")  # hangs as it starts comparing files
    assert code == 1 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("cribboard: error: ")
    assert took < 60, took  # mpremote's reads time out: the command does not wait for good
    pico.first_frame()  # the watchdog restarted it; the app runs: the deploy had not begun
    repaired = cli("flash", "--port", pico.port, "--json", timeout=300)
    assert repaired.returncode == 0, repaired.stderr


def deploy_cut_and_repair(tmp_path, old, step_no, repair=True):
    """A board flashed with --source (the firmware as .py files) gets a
    bytecode deploy, every file of it new; the power goes at step step_no.
    After the power comes back the board runs the app (the cut came before
    the first change or after the last) or shows the deploy-error pattern;
    with repair, the next flash repairs it and the app runs."""
    flash = tmp_path / ("cut%d.bin" % step_no)
    shutil.copy(old, flash)
    pico = Pico(flash).start()
    try:
        pico.first_frame()
        seen, code, err, took = flash_cut_at(pico, step_no, "cut")
        assert len(seen) >= step_no, (step_no, seen)
        assert pico.died(60), "the power cut never came: %s" % seen[-1]
        cut_at = seen[step_no - 1]
        if code == 0:  # the cut came after the command's last word: the board's reset and first save
            assert cut_at == "flash: restarting the board", cut_at
        else:
            assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("cribboard: error: "), err
            assert took < 60, (cut_at, took)
        pico.stop()
        pico.start()
        before = "deploy as started" in cut_at or "comparing" in cut_at or "connecting" in cut_at
        unfinished = not (before or code == 0 or "restarting" in cut_at)
        if not unfinished:  # the old deploy, or the new one, whole
            assert pico.first_frame(60) and not shows_deploy_error(pico, layout(), 2.0), cut_at
        else:
            assert shows_deploy_error(pico, layout()), "no deploy-error pattern after a cut at %s" % cut_at
            if repair:  # (the sweep asks at the steps it repairs)
                sync = one_line_error(cli("sync", "--port", pico.port, "--db", str(tmp_path / "s.db"),
                                          timeout=120))
                assert "last deploy did not finish" in sync and "cribboard flash --port" in sync, sync
        if repair:
            repaired = cli("flash", "--port", pico.port, "--json", timeout=300)
            assert repaired.returncode == 0, (cut_at, repaired.stderr)
            # It found the deploy unfinished (what is left may be only removals, or the last word).
            assert (json.loads(repaired.stdout)["previous_deploy"] == "incomplete") is unfinished, cut_at
            assert state(pico)["events"] is not None  # the app answers once it has booted
            enter(pico, 0, 2)
            assert entries_kept(state(pico)["events"])[-1] == (0, 2)
        return cut_at
    finally:
        pico.stop()


@pytest.fixture(scope="module")
def source_image(tmp_path_factory):
    """A Pico flashed with --source: a bytecode deploy then changes every file."""
    flash = tmp_path_factory.mktemp("pico-source") / "source.bin"
    pico = Pico(flash).start()
    try:
        assert cli("flash", "--port", pico.port, "--source", timeout=300).returncode == 0
    finally:
        pico.stop()
    return flash


def test_a_deploy_cut_by_the_power_shows_the_deploy_error_and_the_next_flash_repairs(source_image, tmp_path):
    cut = deploy_cut_and_repair(tmp_path, source_image, 6)  # a few files in: lib/cribapp half new
    assert cut.startswith("flash: writing lib/")


@pytest.mark.sweep
def test_a_deploy_cut_at_every_step_shows_the_deploy_error_and_the_next_flash_repairs(source_image, tmp_path):
    pico = Pico(tmp_path / "count.bin")
    shutil.copy(source_image, pico.flash)
    pico.start()
    try:
        done = cli("flash", "--port", pico.port, timeout=300)
        steps = [line for line in done.stderr.splitlines() if line.startswith("flash: ")]
    finally:
        pico.stop()
    assert len(steps) > 80 and steps[-1] == "flash: restarting the board"  # writes, then the .py removed
    for step_no in range(3, len(steps) + 1):
        deploy_cut_and_repair(tmp_path, source_image, step_no, repair=step_no % 8 == 0 or step_no > len(steps) - 3)
