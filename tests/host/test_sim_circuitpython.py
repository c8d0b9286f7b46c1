# The simulated CircuitPython board: code.py from a CIRCUITPY drive folder on
# CPython over the stand-in hardware modules, with its page, JSON API and the
# link on its data port, so that sync, watch and flash --drive work as on a
# real CircuitPython board.
import json
import signal
import subprocess
import sys
from functools import partial

from clirun import cli as run_cli
from clirun import line_starting
from deadline import WAIT_S
from simboard import Board

from cribboard.link.client import BoardLink

cli = partial(run_cli, check=True)  # every command here must succeed


def test_a_game_on_the_simulated_circuitpython_board_syncs_like_any_other(tmp_path):
    board = Board(tmp_path / "CIRCUITPY", edition="circuitpython")
    try:
        assert board.sim.runtime == "circuitpython"
        assert (tmp_path / "CIRCUITPY" / "code.py").exists()
        link = BoardLink(board.port)
        hello = link.hello()
        link.close()
        assert hello["period"] == 1 << 29
        assert hello["ticks"] < 1 << 29
        watch = subprocess.Popen(
            [sys.executable, "-u", "-m", "cribboard", "watch", "--json", "--port", board.port],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            line_starting(watch.stderr, "watching board ")
            board.enter("P2", 4)
            assert json.loads(watch.stdout.readline())["scores"] == [0, 4]
        finally:
            watch.send_signal(signal.SIGINT)
            watch.wait(WAIT_S)
        board.press("UNDO")
        board.press("OK", "long")  # the menu: item 4 (the game), next value (61), apply
        for _ in range(3):
            board.press("P1")
        board.press("P2")
        board.press("OK")
        for points in (20, 20, 20, 1):
            board.enter("P1", points)
        board.press("OK")  # confirm the win: logged on the drive
        db = str(tmp_path / "results.sqlite3")
        assert json.loads(cli("sync", "--port", board.port, "--db", db, "--json").stdout)["new_games"] == 1
        (game,) = json.loads(cli("matches", "--db", db, "--json").stdout)
        assert game["scores"] == [61, 0]
        assert game["target"] == 61
        flashed = json.loads(cli("flash", "--drive", str(tmp_path / "CIRCUITPY"), "--json").stdout)
        assert flashed["written"] == []
        assert flashed["port"] == str(tmp_path / "CIRCUITPY")
    finally:
        board.stop()


def test_a_copy_of_a_built_in_library_on_the_drive_is_not_used(tmp_path):
    """adafruit_pixelbuf is built into CircuitPython for the RP2040: a .py
    of it in the drive's lib/ is never imported there, nor here."""
    drive = tmp_path / "CIRCUITPY"
    Board(drive, edition="circuitpython").stop()
    (drive / "lib" / "adafruit_pixelbuf.py").write_text('raise ImportError("the copy on the drive was imported")\n')
    board = Board(drive, edition="circuitpython", seed=False)
    try:
        board.enter("P1", 3)
        link = BoardLink(board.port)
        try:
            link.hello()
            assert [e[:2] for e in link.state()["events"]] == [[0, 3]]  # the board plays
        finally:
            link.close()
    finally:
        board.stop()
