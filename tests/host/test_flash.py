# Deploys on the simulated board (the real firmware on MicroPython's unix
# port, reached over its pty by mpremote's own transport): cut off at every
# step, a board whose app cannot import, bytecode the board cannot load, the
# sources instead of bytecode, and the mip package.
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from clirun import cli
from deadline import COMMAND_S, WAIT_S
from simboard import Board, copy_flash, deploy_state

from cribboard import resources
from cribboard.deploy import flash
from cribboard.errors import CribboardError
from cribboard.link.client import BoardLink
from cribcore.layout import Layout

DEPLOY_ERROR = 6


def shows_deploy_error(board, seconds=WAIT_S):
    """True once track 1's first six game-point LEDs are red and the seventh is not (looked at once at
    least: seconds=0 is what the strip shows now)."""
    points = Layout(json.loads((board.flash / "layout.json").read_text())).points[0]
    deadline = time.monotonic() + seconds
    while True:
        leds = board.leds()
        red = [leds[i][0] > 0 and leds[i][1] == 0 and leds[i][2] == 0 for i in points]
        if all(red[:DEPLOY_ERROR]) and not red[DEPLOY_ERROR]:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


def plays(board):
    """The app runs: a tap of P1 and OK lights track 1's first hole."""
    hole1 = Layout(json.loads((board.flash / "layout.json").read_text())).hole[0][1]
    board.enter("P1", 1)
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if board.leds()[hole1] != [0, 0, 0]:
            return True
        time.sleep(0.05)
    return False


def flash_killed_at(port, step):
    """Run cribboard flash and SIGKILL it as soon as it starts step number `step`."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cribboard.cli", "flash", "--port", port],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen = 0
    for line in proc.stderr:
        if line.startswith("flash: "):
            seen += 1
            if seen == step:
                proc.send_signal(signal.SIGKILL)
                break
    proc.wait(WAIT_S)
    proc.stderr.close()
    return seen


def deploy_cut_at_every_step(old, where):
    """One deploy over a copy of `old`, the board's flash copied at the start
    of every step (the step's operations not begun, the last step's done and
    answered): [(step, copy)]. A deploy stopped at that step, a copy."""
    live = where / "deploy"
    shutil.copytree(old, live)
    board = Board(live, seed=False)
    snaps = []
    try:

        def snapshot(text):
            copy = where / ("step%d" % (len(snaps) + 1))
            copy_flash(live, copy)  # the board may be saving as the first steps begin
            snaps.append(("flash: " + text, copy))

        flash.flash(board.port, step=snapshot)
    finally:
        board.stop()
    return snaps


def boots_after_the_cut(live, cut_at, repair):
    """The board whose deploy stopped at cut_at, powered up: it plays or shows
    the deploy error as its deploy.json says; with repair, the next flash
    repairs it. Returns the deploy's state."""
    state = deploy_state(live)
    board = Board(live, seed=False)  # power off and on after the cut
    try:
        if state in ("none", "complete"):  # cut before the first change, or after the last
            assert plays(board) and not shows_deploy_error(board, 0), cut_at  # the app drew the tap: no pattern now
        else:
            assert shows_deploy_error(board), "cut at %s left %s but no deploy error" % (cut_at, state)
        if repair:
            restarts = board.restarts()
            repaired = cli("flash", "--port", board.port)
            assert repaired.returncode == 0, repaired.stderr
            assert deploy_state(live) == "complete"
            board.back(restarts)
            assert plays(board)
            assert not shows_deploy_error(board, 0)
            assert not [
                p
                for p in live.rglob("*")
                if p.name.endswith(".new") or (p.suffix == ".py" and p.name not in ("main.py", "boot.py"))
            ]
    finally:
        board.stop()
    return state


def test_a_deploy_cut_off_at_every_step_leaves_a_board_that_boots_and_the_next_flash_repairs(tmp_path):
    old = tmp_path / "old"  # the board before the update: the firmware as sources, no deploy manifest
    Board(old).stop()
    snaps = deploy_cut_at_every_step(old, tmp_path)  # linear: one deploy, a copy of the flash a step
    steps = [text for text, _copy in snaps]
    started = next(k for k, s in enumerate(steps, 1) if "marking the deploy as started" in s)
    assert len(steps) > 30
    assert steps[-1] == "flash: restarting the board"

    def powered_up(step):
        cut_at, live = snaps[step - 1]
        return boots_after_the_cut(live, cut_at, repair=step % 8 == 0 or step in (started, started + 1, len(steps) - 2))

    with ThreadPoolExecutor(4) as boards:  # each copy is a board of its own: four powered up at a time
        outcomes = set(boards.map(powered_up, range(1, len(snaps) + 1)))
    assert {"none", "incomplete", "complete"} <= outcomes
    # And once as a user stops it: the command killed (SIGKILL) as it starts writing the third file.
    live = tmp_path / "killed"
    shutil.copytree(old, live)
    board = Board(live, seed=False)
    try:
        assert flash_killed_at(board.port, started + 3) == started + 3
    finally:
        board.stop()
    assert boots_after_the_cut(live, steps[started + 2], True) == "incomplete"


def test_an_app_that_cannot_import_after_a_cut_still_shows_the_deploy_error_and_flash_repairs_it(tmp_path):
    board = Board(tmp_path / "flash")
    try:
        assert cli("flash", "--port", board.port).returncode == 0
    finally:
        board.stop()
    live = tmp_path / "flash"
    (live / "lib" / "cribapp" / "app.mpy").write_bytes(b"M\x06 not bytecode at all")
    head = json.loads((live / "deploy.json").read_text())
    del head["sizes"]
    (live / "deploy.json").write_text(json.dumps(dict(head, state="incomplete")))  # as a deploy starts it
    (live / "deploy.json.new").write_text('{"state": "comp')  # what a cut mid-write leaves
    (live / "lib" / "cribapp" / "render.mpy.new").write_bytes(b"M\x06")
    board = Board(live, seed=False)
    try:
        assert shows_deploy_error(board)
        restarts = board.restarts()
        done = cli("flash", "--port", board.port, "--json")  # Ctrl-C stops the blinking; flash takes over
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["written"] == ["lib/cribapp/app.mpy"]
        assert result["previous_deploy"] == "incomplete"
        assert sorted(result["removed"]) == ["deploy.json.new", "lib/cribapp/render.mpy.new"]
        board.back(restarts)
        assert deploy_state(live) == "complete"
        assert plays(board)
        assert not list(live.rglob("*.new"))
    finally:
        board.stop()


STATE = ("state.json", "state.tmp")  # cribapp.store's


def test_bytecode_the_board_cannot_load_is_refused_and_the_board_left_as_it_was(tmp_path, monkeypatch):
    board = Board(tmp_path / "flash")
    try:
        # The board's own state files aside: its power-up save follows its first frame, so one may be half
        # way (state.tmp written, not yet renamed) when this looks.
        before = {p: p.read_bytes() for p in (tmp_path / "flash").rglob("*") if p.is_file() and p.name not in STATE}
        monkeypatch.setattr(flash, "mpy_cross_version", lambda: 5)
        with pytest.raises(flash.FlashError) as refused:
            flash.flash(board.port)
        assert "loads .mpy version 6, but this mpy-cross makes version 5" in str(refused.value)
        assert "--source" in str(refused.value)
        assert isinstance(refused.value, CribboardError)
        after = {p: p.read_bytes() for p in (tmp_path / "flash").rglob("*") if p.is_file() and p.name not in STATE}
        assert after == before
        # --source copies the .py files instead: no bytecode to refuse.
        restarts = board.restarts()
        result = flash.flash(board.port, source=True)
        assert not result.bytecode
        assert deploy_state(tmp_path / "flash") == "complete"
        assert (tmp_path / "flash" / "lib" / "cribapp" / "app.py").exists()
        board.back(restarts)
        assert plays(board)
    finally:
        board.stop()


def test_the_wifi_sender_goes_only_to_a_board_with_a_network_module(tmp_path, monkeypatch):
    """The simulated board is a Pico W: it gets lib/cribclub and the core's
    two modules only the sender loads. A board whose MicroPython has no
    `network` (a plain Pico's) does not, and loses those files if it had
    them: each folder deployed is listed at every power-up."""
    board = Board(tmp_path / "flash")
    try:
        restarts = board.restarts()
        assert flash.flash(board.port).files == len(flash.build())  # everything, the sender too
        sender = sorted(
            r
            for r, _ in flash.build()
            if r.startswith(("lib/cribclub/", "lib/cribcore/clubwire.", "lib/cribcore/signing."))
        )
        assert len(sender) == 4  # cribclub's __init__ and sender, the core's clubwire and signing
        assert all((tmp_path / "flash" / r).exists() for r in sender)
        monkeypatch.setattr(flash.ReplBoard, "has_network", lambda self: False)
        board.back(restarts)
        result = flash.flash(board.port)
        assert sorted(result.removed) == sender
        assert result.files == len(flash.build()) - len(sender)
        assert not [p for p in (tmp_path / "flash" / "lib" / "cribclub").iterdir() if p.is_file()]
        assert not list((tmp_path / "flash" / "lib" / "cribcore").glob("clubwire.*"))
        board.back(restarts + 1)
        assert plays(board)  # the deploy check passes without it
    finally:
        board.stop()


def test_the_mip_package_installs_with_mpremote_and_boots(tmp_path):
    flash_dir = tmp_path / "flash"
    flash_dir.mkdir()
    # A board with only MicroPython on it (the simulator reads the pin map and layout to draw it).
    shutil.copy(resources.board_file("pico"), flash_dir / "board.json")
    shutil.copy(resources.layout_file("2-track"), flash_dir / "layout.json")
    board = Board(flash_dir, seed=False, firmware=False)
    try:
        package = resources.firmware_dir() / "package.json"
        restarts = board.restarts()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "mpremote",
                "connect",
                board.port,
                "mip",
                "install",
                "--target",
                "/",
                str(package),
                "+",
                "reset",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Installing: //board.json" in done.stdout
        assert "Installing: //layout.json" in done.stdout
        assert (flash_dir / "lib" / "cribapp" / "app.py").exists()
        assert (flash_dir / "main.py").exists()
        assert not (flash_dir / "lib" / "cribrules" / "barbu.py").exists()  # host-only modules stay off
        board.back(restarts)  # mpremote's `reset`
        assert plays(board)
        assert not shows_deploy_error(board, 0)
    finally:
        board.stop()


def test_the_documented_mip_install_onto_a_running_board_outlasts_its_watchdog_and_boots(tmp_path):
    # docs/cli.md's way without cribboard, onto a board whose app runs (and so
    # has started its watchdog, which nothing but a hard reset stops on rp2).
    # mpremote soft-resets the board before it works: that ends the timer that
    # fed the watchdog, and the board restarted 8 s later, mid-install
    # ("could not enter raw repl"). Its boot.py now feeds it while the board
    # rests. The port is reached through a link, which mpremote reads slowly
    # (as a user's `cribboard sim --link` would give it), and then the board
    # is left at its REPL for longer than the watchdog's 8 s.
    board = Board(tmp_path / "flash")
    link = tmp_path / "board-port"
    link.symlink_to(board.port)
    try:
        package = resources.firmware_dir() / "package.json"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "mpremote",
                "connect",
                str(link),
                "mip",
                "install",
                "--target",
                "/",
                str(package),
                "+",
                "sleep",
                "9",
                "+",
                "fs",
                "ls",
                "/lib",
                "+",
                "reset",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Installing: //boot.py" in done.stdout
        assert "cribapp/" in done.stdout.split("Done")[-1]
        assert (tmp_path / "flash" / "boot.py").read_bytes() == (
            resources.firmware_dir() / "micropython_boot" / "boot.py"
        ).read_bytes()
        assert board.sim._hw.wait_restarted(0, 300)  # the reset asked for, not the watchdog's
        assert board.sim._hw.resets == 1
        assert plays(board)
        assert not shows_deploy_error(board, 0)
    finally:
        board.stop()


STALL_S = 15  # longer than any of mpremote's own waits (10 s between characters)


def test_a_flash_waits_out_a_board_stopped_longer_than_mpremotes_own_waits(tmp_path):
    # A busy machine stops a simulated board's process for seconds. mpremote alone gives up after 10 s
    # with no character, or reads the late answer as the next command's, and the flash fails. Stopped
    # for STALL_S as it compares files, the board is waited for (CRIBBOARD_LINK_WAIT): the flash ends
    # well. The stall is the input, on the real clock mpremote reads: no fake clock stands for it.
    board = Board(tmp_path / "flash")
    pid = board.sim.proc.pid
    proc = subprocess.Popen(
        [sys.executable, "-m", "cribboard", "flash", "--port", board.port, "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRIBBOARD_LINK_WAIT": str(3 * STALL_S)},
    )
    try:
        said = []
        for line in proc.stderr:
            said.append(line)
            if line.startswith("flash: comparing"):
                os.kill(pid, signal.SIGSTOP)
                time.sleep(STALL_S)
                os.kill(pid, signal.SIGCONT)
                break
        out, err = proc.communicate(timeout=COMMAND_S)
        assert proc.returncode == 0, "".join(said) + err
        assert json.loads(out)["written"]
        assert deploy_state(board.flash) == "complete"
    finally:
        os.kill(pid, signal.SIGCONT)
        proc.kill()
        proc.wait()
        board.stop()


def test_a_flash_whose_first_try_is_answered_late_reads_the_second_banner_away(tmp_path):
    # A board stopped for longer than a try's wait answers the first try's Ctrl-A during the second try:
    # two raw-REPL banners for one, and mpremote alone would read the second as its next command's answer
    # (loaded run 40: "could not exec command (response: b'R\\x01')"). Made here without a clock: the
    # board's process is stopped, a first try's bytes are sent, then flash's own, and only once all of
    # them wait at the board (FIONREAD on its side of the pty) does it run again.
    import fcntl
    import struct
    import termios

    board = Board(tmp_path / "flash")
    pid, board_end = board.sim.proc.pid, board.sim._master
    os.kill(pid, signal.SIGSTOP)
    proc = None
    try:
        fd = os.open(board.port, os.O_RDWR | os.O_NOCTTY)
        os.write(fd, b"\r\x03\r\x01")  # the first try, never read in time
        os.close(fd)
        proc = subprocess.Popen(
            [sys.executable, "-m", "cribboard", "flash", "--port", board.port, "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + WAIT_S
        while struct.unpack("i", fcntl.ioctl(board_end, termios.FIONREAD, b"\0" * 4))[0] < 8:
            assert proc.poll() is None and time.monotonic() < deadline, "flash never sent its Ctrl-C and Ctrl-A"
            time.sleep(0.02)
        os.kill(pid, signal.SIGCONT)
        out, err = proc.communicate(timeout=COMMAND_S)
        assert proc.returncode == 0, err
        assert json.loads(out)["written"]
        assert deploy_state(board.flash) == "complete"
    finally:
        os.kill(pid, signal.SIGCONT)
        if proc is not None:
            proc.kill()
            proc.wait()
        board.stop()


def test_a_flash_right_after_a_flash_reaches_the_board_once_it_is_back_and_writes_nothing(tmp_path):
    # The first flash restarts the board; what the second sends while it is off
    # the bus is lost (as a board leaving USB loses it): it asks again.
    board = Board(tmp_path / "flash")
    try:
        first = cli("flash", "--port", board.port, "--json")
        assert first.returncode == 0, first.stderr
        again = cli("flash", "--port", board.port, "--json")
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["written"] == []
        assert "up to date" in again.stderr
        # Restarted once more: once it is back (its first frame, then the passes that attach its link),
        # its program answers. (Asked sooner, the HELLO is lost in the restart and asked again only
        # after a whole try's wait: test_link_late.py's.)
        board.back(1)  # each flash restarts it once, at its end
        link = BoardLink(board.port, timeout=WAIT_S)
        link.hello()
        link.close()
        assert plays(board)
    finally:
        board.stop()
