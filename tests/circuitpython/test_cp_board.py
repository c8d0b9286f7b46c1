# The board on the CircuitPython edge (firmware/boot.py, code.py, lib/cribcp)
# with CircuitPython's hardware modules stood in (host/cribboard/cp) and the
# real Adafruit neopixel and adafruit_pixelbuf on top: boot, whole games from
# the pins to the bytes on the wire, the saved state, the game log and the
# link on the second USB serial port. Run by `make test-cp`
# (tests/mp_run.py on CPython and on MicroPython's unix port, with those
# modules first on sys.path; the rig is tests/circuitpython/cprig.py).
import json
import os

import simcp
import usb_cdc
from cprig import FIRMWARE, CpTable, InFolder, fresh_flash, run_file

from cribapp import render as rc
from cribapp.store import FlashFiles, Store

from rig import play


def test_boot_enables_the_data_port_and_gives_the_drive_to_the_program_unless_undo_is_held():
    flash = fresh_flash()
    t = CpTable(flash)
    assert t.serial is not None
    assert usb_cdc.console is not None
    assert simcp.remounts == [("/", False)]
    CpTable(flash, held=("UNDO",))
    assert simcp.remounts == []  # the computer keeps the drive: a deploy can write it


def test_a_whole_game_from_the_pins_to_the_wire_on_a_clock_that_wraps_at_2_29():
    flash = fresh_flash()
    t = CpTable(flash)
    start = t.clock.now
    g = play(t, [0, 75], winner=0)
    assert g.scores() == [121, 75]
    assert t.clock.now < start
    lay, r = t.layout, t.app.renderer
    assert len(simcp.frames[-1]) == 3 * lay.n  # Adafruit's driver sent the whole strip
    assert t.wire(lay.hole[1][75]) == r.colour(rc.FRONT + 1)
    assert t.wire(lay.hole[1][60]) == r.colour(rc.BACK + 1)
    assert t.wire(lay.hole[1][91]) == r.colour(rc.LINE)  # skunked: the 91 line shows
    t.tap("OK")  # confirm the win: logged on the drive
    (rec,) = [json.loads(body) for _, body in Store(FlashFiles(flash)).since(0, 9)]
    assert (rec["scores"], rec["winner"], rec["skunk"]) == ([121, 75], 0, 1)
    assert rec["board"] == "e6614104032b2c29"
    assert 0 <= rec["ticks"] < 1 << 29


def test_the_link_runs_on_the_data_port_and_says_where_its_ticks_wrap():
    flash = fresh_flash()
    t = CpTable(flash)
    play(t, [40, 0], winner=1)
    t.tap("OK")
    (hello,) = t.ask("HELLO")
    words = dict(w.split("=") for w in hello.split()[1:])
    assert words["period"] == str(1 << 29)
    assert words["seq"] == "1"
    assert words["board"] == "e6614104032b2c29"
    lines = t.ask("LIST 0")
    assert lines[0].startswith("REC 1 ")
    assert json.loads(lines[0][6:])["scores"] == [40, 121]
    assert lines[-1] == "END 1 1"
    t.serial.connected = False  # the host closed the port: lines are dropped, the board goes on
    t.ask("HELLO")
    t.tap("P1")
    t.tap("OK")
    assert t.app.match.game.scores() == [1, 0]  # the board went on: the point counted


def test_the_match_survives_a_power_cycle():
    flash = fresh_flash()
    t = CpTable(flash)
    t.enter(0, 5)
    t.enter(1, 12)
    again = CpTable(flash)
    assert again.app.match.game.scores() == [5, 12]
    assert again.app.boot == 2


def test_with_an_app_that_cannot_start_code_py_still_shows_the_deploy_error():
    flash = fresh_flash()
    code = run_file(FIRMWARE + "/code.py", flash)
    assert code["DEPLOY_ERROR_LEDS"] == 6  # cribapp.codes.ERR_DEPLOY, which code.py must not need
    from cribapp.codes import ERR_DEPLOY
    from cribcore.layout import Layout

    assert ERR_DEPLOY == 6
    points = Layout(json.load(open(flash + "/layout.json"))).points[0]
    waits = []
    simcp.reset()
    code["show_deploy_error"](flash, blinks=1, wait=waits.append)
    frame = simcp.frames[-1]
    lit = [i for i in range(len(frame) // 3) if frame[3 * i : 3 * i + 3] != b"\0\0\0"]
    assert simcp.wire[0] == "GP0"
    assert len(frame) == 3 * 258
    assert waits == [0.5]
    assert lit == sorted(points[:6])
    assert frame[3 * points[0] + 1] > 0
    assert frame[3 * points[0]] == 0
    code["show_deploy_error"](flash, blinks=2, wait=waits.append)
    assert simcp.frames[-1] == bytes(3 * 258)  # the blink's dark half
    os.remove(flash + "/board.json")  # no pin map: the default pin, GP0
    code["show_deploy_error"](flash, blinks=1, wait=waits.append)
    assert simcp.wire[0] == "GP0"
    assert len(simcp.frames[-1]) == 3 * 258
    import sys

    saved = sys.modules["cribcore.config"]
    sys.modules["cribcore.config"] = None  # the app's own modules do not load: the board's own NeoPixel
    try:
        code["show_deploy_error"](flash, blinks=1, wait=waits.append)
    finally:
        sys.modules["cribcore.config"] = saved
    assert simcp.wire[0] == "NEOPIXEL"
    assert simcp.frames[-1] == b"\0\x50\0"


class Console:
    """code.py's traceback module, keeping what it prints on the console."""

    def __init__(self, real):
        self.real = real
        self.printed = []

    def print_exception(self, e):
        self.printed.append("".join(self.real.format_exception(e)))

    def format_exception(self, e):
        return self.real.format_exception(e)


def test_an_app_that_cannot_import_shows_the_deploy_error_only_when_a_deploy_was_cut():
    import sys

    flash = fresh_flash()
    code = run_file(FIRMWARE + "/code.py", flash)
    shown = []
    code["show_deploy_error"] = lambda: shown.append(True)
    console = code["traceback"] = Console(code["traceback"])
    import cribapp

    saved = sys.modules.get("cribapp.assemble")
    # What a half-copied module gives: it does not import. (CPython raises ImportError for it,
    # CircuitPython and MicroPython give None: either way the app cannot be built.)
    sys.modules["cribapp.assemble"] = None
    loaded = cribapp.__dict__.pop("assemble", None)
    try:
        with InFolder(flash):
            with open("deploy.json", "w") as f:
                f.write('{"state": "incomplete"}')
            code["run"]()
            assert shown == [True]
            assert len(console.printed) == 1
            assert "assemble" in console.printed[0] or "NoneType" in console.printed[0], console.printed
            with open("deploy.json", "w") as f:
                f.write('{"state": "complete"}')
            try:
                code["run"]()
            except Exception:
                pass
            else:
                raise AssertionError("a finished deploy's error must reach the console")
            assert shown == [True]
    finally:
        if saved is None:
            del sys.modules["cribapp.assemble"]  # a None left behind would be imported as None
        else:
            sys.modules["cribapp.assemble"] = saved
        if loaded is not None:
            cribapp.assemble = loaded


def test_a_crash_in_the_loop_is_logged_and_circuitpython_reloads_code_py():

    import supervisor

    from cribapp import crashlog

    flash = fresh_flash()
    CpTable(flash)  # boot.py has run; code.py is what reloads
    code = run_file(FIRMWARE + "/code.py", flash)
    real_build = code["build"]

    def build():
        app = real_build(flash)
        real = app.keypad.poll

        def broken(now, diff):
            if simcp.now_ms[0] > 500:
                raise RuntimeError("a button driver failed")
            return real(now, diff)

        app.keypad.poll = broken
        return app

    def pause():
        simcp.now_ms[0] += 10

    code["build"], code["_pause"] = build, pause
    with InFolder(flash):
        try:
            code["run"]()
        except supervisor.Reload:
            pass
        else:
            raise AssertionError("code.py did not reload")
    (entry,) = crashlog.entries(FlashFiles(flash))
    assert "RuntimeError: a button driver failed" in entry[2]
    assert entry[2].startswith("Traceback")
    from cribcore.layout import Layout

    points = Layout(json.load(open(flash + "/layout.json"))).points[0]
    shown = [[frame[3 * i + 1] > 0 and frame[3 * i] == 0 for i in points] for frame in simcp.frames[-40:]]
    assert [True] * 7 in shown  # all seven of track 1's game-point LEDs red (GRB on the wire)


def test_supervisor_reload_gets_past_any_except_exception():
    """As in CircuitPython 10: reload() stops code.py with an exception that
    is not an Exception, so no handler in the board's code swallows it."""
    import supervisor

    try:
        try:
            supervisor.reload()
        except Exception:  # what code.py's and the loop's handlers catch
            raise AssertionError("reload() was caught as an Exception") from None
        raise AssertionError("reload() returned: code.py would have gone on")
    except supervisor.Reload:
        pass
