# Faults a user's board meets, each tested on two boards with one body: the
# simulated board (the firmware on MicroPython's unix port, in every run)
# and the real RP2040 port on the emulated Pico (with CRIBBOARD_PICO_UF2:
# its timing, its 32-bit heap, its flash driver, its resets). A hang ended
# by the watchdog, a held point button, a flash whose board stops
# answering, a REPL's echo of HELLO, and a deploy cut by the power, once and
# at every step (the sweeps: make test-faults). Power cuts inside a save's
# flash writes are the emulated Pico's (test_pico_faults.py); on the unix
# port they are cut at every file and every LittleFS block operation
# (tests/firmware/test_fw_powercut.py, tests/device/test_lfs_powercut.py).
import json
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from clirun import cli, one_line_error
from deadline import COMMAND_S, WAIT_S
from pico import Pico
from picoplay import PINS, enter, layout, shows_deploy_error, shows_error, state, tap
from simboard import UnixPico, deploy_state

from cribapp.codes import ERR_CRASH
from cribboard.deploy import flash as deploy

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="pseudo-terminals as set up here")

BOARDS = {"unix": UnixPico, "pico": Pico}
ON_BOTH = [pytest.param("unix"), pytest.param("pico", marks=pytest.mark.pico)]


@pytest.fixture(params=ON_BOTH)
def kind(request):
    return request.param


@pytest.fixture
def flash(kind, tmp_path, request):
    """A copy of a board's flash that `cribboard flash` deployed (powered off)."""
    image = request.getfixturevalue("%s_image" % kind)
    return BOARDS[kind].copy(image, tmp_path / "flash")


@pytest.fixture
def board(kind, flash):
    """That board, powered up and showing its first frame."""
    b = BOARDS[kind](flash).start()
    b.first_frame()
    yield b
    b.stop()


def entries_kept(events):
    return [(e[0], e[1]) for e in events]


def test_a_hang_is_ended_by_the_watchdog_the_game_goes_on_and_sync_reports_it(board, tmp_path):
    enter(board, 0, 3)
    enter(board, 1, 2)
    boot = state(board)["boot"]
    frames = board.hw.frames
    board.freeze()  # the core stops (interrupts too): nothing feeds the watchdog
    assert board.hw.wait_frame(frames, WAIT_S) > frames, "the board never came back"
    assert shows_error(board, layout(), ERR_CRASH, WAIT_S), "the crash pattern was not shown"
    after = state(board)
    assert after["boot"] == boot + 1  # a restart, by the watchdog: the process never ended
    assert entries_kept(after["events"]) == [(0, 3), (1, 2)]
    enter(board, 0, 4)
    assert entries_kept(state(board)["events"])[-1] == (0, 4)
    db = str(tmp_path / "club.sqlite3")
    done = cli("sync", "--port", board.port, "--db", db, "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["crashes"] == 1, done.stderr
    (crash,) = json.loads(cli("crashes", "--db", db, "--json").stdout)
    assert crash["boot"] == boot and crash["text"].startswith("WatchdogReset: "), crash


def test_a_board_left_at_its_repl_is_never_restarted_by_its_watchdog(board):
    """Ctrl-C leaves the board at its REPL for as long as a person or a
    deploy needs it: its watchdog (8 s) is fed meanwhile, so nothing redraws
    in 12 s; Ctrl-D starts the program again."""
    import serial

    enter(board, 0, 5)
    with serial.Serial(board.port, timeout=1) as port:
        port.write(b"\x03")  # the program stops between two passes
        assert b">>>" in port.read_until(b">>> ")
        frames = board.hw.frames
        assert board.hw.wait_frame(frames, 12) == frames, "restarted under the REPL"
        port.write(b"\x04")  # a soft reboot: main.py runs
    assert board.hw.wait_frame(frames, WAIT_S) > frames
    assert entries_kept(state(board)["events"]) == [(0, 5)]
    assert not shows_error(board, layout(), ERR_CRASH, 4)  # stopped on purpose: no hang to report


def test_a_point_button_held_past_29_never_splits_the_entry(board):
    board.hw.press(PINS["P2"], 6000, 3000)  # the repeats reach 29 in 3.85 s; the idle timer is 2 s
    assert state(board)["events"] == []  # held: not counted while the button was down, nor after
    tap(board, "OK")
    assert entries_kept(state(board)["events"]) == [(1, 29)]


def test_a_repl_echoing_hello_is_not_taken_for_the_board(kind, tmp_path):
    """A board with only MicroPython on it echoes what it is sent: its echo
    of HELLO is never read as the program's answer."""
    blank = BOARDS[kind](tmp_path / "blank").start()
    try:
        said = one_line_error(cli("sync", "--port", blank.port, "--db", str(tmp_path / "g.db"), timeout=120))
        assert "answers as MicroPython" in said and "not the Cribboard program" in said, said
        assert "cribboard flash --port %s" % blank.port in said
    finally:
        blank.stop()


def flash_cut_at(board, step_no, how):
    """Run `cribboard flash`; when it starts its step number step_no, make the
    board stop answering (`how`: "cut", the power goes, as soon as the board
    can tell; "freeze", it hangs). Returns (steps seen, exit status, stderr).
    A command that does not end by itself within COMMAND_S is killed, and its
    status says so (negative): mpremote's reads time out, so it never waits
    for good."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cribboard", "flash", "--port", board.port],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen, err = [], []
    net = threading.Timer(COMMAND_S, proc.kill)
    net.start()
    try:
        for line in proc.stderr:
            err.append(line)
            if line.startswith("flash: "):
                seen.append(line.strip())
                if len(seen) == step_no:
                    if how == "cut":
                        board.cut_soon()
                    else:
                        board.freeze()
        code = proc.wait(WAIT_S)
    finally:
        net.cancel()
        proc.kill()
        proc.wait()
    return seen, code, "".join(err)


def test_a_flash_whose_board_stops_answering_ends_with_an_error_and_the_next_flash_repairs(board):
    _seen, code, err = flash_cut_at(board, 2, "freeze")  # hangs as it starts comparing files
    assert code == 1 and "Traceback" not in err, err  # it ended by itself, not by the test's net
    assert err.strip().splitlines()[-1].startswith("cribboard: error: ")
    board.first_frame()  # the watchdog restarted it; the app runs: the deploy had not begun
    repaired = cli("flash", "--port", board.port, "--json", timeout=300)
    assert repaired.returncode == 0, repaired.stderr


def unfinished_by_step(cut_at, code):
    """Whether a cut left the deploy unfinished, from the step it came at:
    the emulated Pico's cut comes at the board's next flash operation after
    the step began."""
    before = "deploy as started" in cut_at or "comparing" in cut_at or "connecting" in cut_at
    return not (before or code == 0 or "restarting" in cut_at)


def deploy_cut_and_repair(kind, tmp_path, old, step_no, repair=True, ask=True):
    """A board flashed with --source (the firmware as .py files) gets a
    bytecode deploy, every file of it new; the power goes at step step_no.
    After the power comes back the board runs the app (the cut came before
    the first change or after the last) or shows the deploy-error pattern
    (checked_after_cut). Returns the step the cut came at, and whether it
    left the deploy unfinished."""
    board = BOARDS[kind](BOARDS[kind].copy(old, tmp_path / ("cut%d" % step_no))).start()
    try:
        board.first_frame()
        seen, code, err = flash_cut_at(board, step_no, "cut")
        assert len(seen) >= step_no, (step_no, seen, err[-1500:], board.log_tail() if kind == "unix" else "")
        assert board.died(60), "the power cut never came: %s" % seen[-1]
        cut_at = seen[step_no - 1]
        if code == 0:  # the cut came after the command's last word: the board's reset and first save
            assert cut_at == "flash: restarting the board", cut_at
        else:
            assert code == 1, (cut_at, code)  # it ended by itself, not by the test's net
            assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("cribboard: error: "), err
        board.stop()
        # The simulated board is cut the moment the step begins, its flash a folder the host reads: what the
        # cut left is read there. The emulated Pico's is known from the step.
        unfinished = board.deploy_state() == "incomplete" if kind == "unix" else unfinished_by_step(cut_at, code)
    finally:
        board.stop()
    checked_after_cut(board, cut_at, unfinished, tmp_path, repair, ask)
    return cut_at, unfinished


def checked_after_cut(board, cut_at, unfinished, tmp_path, repair=True, ask=True):
    """A board whose deploy the power cut at cut_at, powered up again: it runs
    the app, or, with its deploy unfinished, shows the deploy-error pattern,
    which sync names (with ask); with repair, the next flash repairs it and
    the app runs."""
    board.start()
    try:
        if not unfinished:  # the old deploy, or the new one, whole
            assert board.first_frame(WAIT_S) and not shows_deploy_error(board, layout(), 2.0), cut_at
        else:
            assert shows_deploy_error(board, layout()), "no deploy-error pattern after a cut at %s" % cut_at
            if ask:
                said = one_line_error(cli("sync", "--port", board.port, "--db", str(tmp_path / "s.db"), timeout=120))
                assert "last deploy did not finish" in said and "cribboard flash --port" in said, said
        if repair:
            resets = board.hw.resets
            repaired = cli("flash", "--port", board.port, "--json", timeout=300)
            assert repaired.returncode == 0, (cut_at, repaired.stderr)
            # Restarted by the flash, the board shows the game again: what a player waits for before
            # talking to it (what is sent while it resets is lost, as a board leaving the USB bus loses it).
            assert board.hw.wait_restarted(resets, WAIT_S) > 0
            # It found the deploy unfinished (what is left may be only removals, or the last word).
            assert (json.loads(repaired.stdout)["previous_deploy"] == "incomplete") is unfinished, cut_at
            assert state(board)["events"] is not None  # the app answers once it has booted
            enter(board, 0, 2)
            assert entries_kept(state(board)["events"])[-1] == (0, 2)
    finally:
        board.stop()


def deploy_snapshots(kind, old, where):
    """One bytecode deploy over a copy of `old`, the board's flash copied at
    the start of every step: the step's operations not begun, the last
    step's all done and answered, the board idle. A cut at any step is then
    that copy powered up: the sweep costs one deploy, not one a step.
    Returns [(step, copy of the flash)]."""
    board = BOARDS[kind](BOARDS[kind].copy(old, where / "deploy")).start()
    snaps = []
    try:
        board.first_frame()

        def snapshot(text):
            snaps.append(("flash: " + text, BOARDS[kind].copy(board.flash, where / ("step%d" % (len(snaps) + 1)))))

        deploy.flash(board.port, step=snapshot)
    finally:
        board.stop()
    return snaps


@pytest.fixture
def source_image(kind, tmp_path_factory):
    """A board flashed with --source: a bytecode deploy then changes every file."""
    board = BOARDS[kind](tmp_path_factory.mktemp("source-%s" % kind) / "source").start()
    try:
        done = cli("flash", "--port", board.port, "--source", timeout=300)
        assert done.returncode == 0, (done.stderr, board.log_tail() if kind == "unix" else "")
    finally:
        board.stop()
    return board.flash


def test_a_deploy_cut_by_the_power_shows_the_deploy_error_and_the_next_flash_repairs(kind, source_image, tmp_path):
    cut, unfinished = deploy_cut_and_repair(kind, tmp_path, source_image, 6)  # a few files in: lib/cribapp half new
    assert cut.startswith("flash: writing lib/")
    assert unfinished


@pytest.mark.sweep
@pytest.mark.parametrize("kind", [pytest.param("unix"), pytest.param("pico", marks=pytest.mark.pico)])
def test_a_deploy_cut_at_every_step_shows_the_deploy_error_and_the_next_flash_repairs(kind, source_image, tmp_path):
    snaps = deploy_snapshots(kind, source_image, tmp_path)
    steps = [text for text, _flash in snaps]
    assert len(steps) > 80
    assert steps[-1] == "flash: restarting the board"

    def powered_up(step_no):
        cut_at, image = snaps[step_no - 1]
        # The simulated board repairs at every step; the emulated Pico (some 50 s a flash) at every
        # eighth and the last three; both ask sync what the board says there.
        some = step_no % 8 == 0 or step_no > len(steps) - 3
        unfinished = unfinished_by_step(cut_at, 1)
        if kind == "unix":
            assert (deploy_state(image) == "incomplete") is unfinished, cut_at  # what the cut left, read
        own = tmp_path / ("check%d" % step_no)
        own.mkdir()
        checked_after_cut(BOARDS[kind](image), cut_at, unfinished, own, kind == "unix" or some, some)
        return unfinished

    # From step 3 (connecting, comparing: nothing on the board changed yet; test_faults' freeze case).
    # Each copy is a board of its own: simulated ones four at a time; an emulated Pico takes a core.
    with ThreadPoolExecutor(4 if kind == "unix" else 1) as boards:
        outcomes = set(boards.map(powered_up, range(3, len(snaps) + 1)))
    assert outcomes == {True, False}  # cuts before the first change or after the last, and between
