# The simulated board's page and JSON API, with the real firmware running
# on MicroPython's unix port behind them.
import urllib.request

from deadline import WAIT_S
from simboard import Board


def test_the_page_is_served(board):
    with urllib.request.urlopen(board.url + "/", timeout=WAIT_S) as r:
        page = r.read().decode()
    assert page.startswith("<!doctype html>")
    assert "/api/press" in page
    assert "/api/state" in page


def test_the_state_names_each_track_and_a_missing_board_is_404(board):
    (view,) = board.get("/api/state")["boards"]
    assert view["players"] == ["Track 1", "Track 2"]
    assert view["kind"] == "cribbage"
    assert view["game"] >= 1
    for path in ("/api/leds?board=1", "/api/layout?board=x", "/api/leds?board=%C2%B2"):
        try:
            board.get(path)
        except urllib.error.HTTPError as e:
            assert e.code == 404
            assert "no board" in e.read().decode()
        else:
            raise AssertionError(path)


def test_layout_and_leds(board):
    layout = board.get("/api/layout")
    assert layout["name"] == "2-track"
    assert layout["leds"] == 258
    assert layout["buttons"] == ["P1", "P2", "UNDO", "SKUNK", "OK"]
    leds = board.get("/api/leds")
    assert leds["layout"] == "2-track"
    assert len(leds["leds"]) == 258
    assert all(len(c) == 3 for c in leds["leds"])


def test_pressing_buttons_moves_the_peg(board):
    board.enter("P1", 3)
    hole3 = 2  # track 1's hole 3 is the strip's third LED (hardware/layouts/2-track.json)
    assert board.lit(hole3)
    leds = board.leds()
    assert leds[hole3][0] > leds[hole3][2]  # red-orange: track 1's colour
    board.press("UNDO")
    assert board.lit(hole3, on=False)


def test_bad_presses_are_refused_with_a_reason(board):
    status, body = board.post("/api/press", {"button": "P3"})
    assert status == 400
    assert "no button" in body["error"]
    status, body = board.post("/api/press", {"button": "OK", "gesture": "double"})
    assert status == 400
    assert "gesture" in body["error"]
    status, body = board.post("/api/press", [1, 2])
    assert status == 400


def test_without_the_unix_port_the_firmware_runs_on_cpython(tmp_path, monkeypatch):
    from cribboard.link.client import BoardLink
    from cribcore.serialwire import PROTOCOL

    monkeypatch.setenv("CRIBBOARD_SIM_RUNTIME", "cpython")
    b = Board(tmp_path / "flash")
    try:
        assert b.sim.runtime == "cpython"
        b.enter("P2", 2)
        assert b.lit(58)  # track 2's hole 2
        link = BoardLink(b.port)
        assert link.hello()["proto"] == PROTOCOL
        assert link.state()["events"][0][:3] == [1, 2, "points"]
        link.close()
    finally:
        b.stop()


def test_verbose_logs_the_link_lines_each_way_on_stderr(board, tmp_path):
    from clirun import cli

    done = cli("--verbose", "sync", "--port", board.port, "--db", str(tmp_path / "v.db"), "--json")
    assert done.returncode == 0, done.stderr
    assert "cribboard: link: > HELLO" in done.stderr
    assert "cribboard: link: < HELLO board=" in done.stderr
    assert done.stdout.startswith("{")  # data still alone on stdout
