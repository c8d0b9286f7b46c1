# The CircuitPython edition's watchdog on the boards the hardware guide names
# for it (a Pico and a Feather RP2040: CircuitPython's raspberrypi port, whose
# watchdog has RESET only, 8.388 s at most, and no deinit() in version 10),
# and on a port that has RAISE. code.py runs its own loop (cribapp.mainloop)
# while a script plays the pins, one step a loop pass, on the board's clock.
import microcontroller
import simcp
import supervisor
import watchdog
from cprig import FIRMWARE, CpTable, InFolder, fresh_flash, run_file

from cribapp import crashlog
from cribapp.codes import ERR_CRASH
from cribapp.store import FlashFiles

PASS_MS = 10
STALL_MS = 60000  # the longest a script waits for the watchdog: every test ends, passing or not
BOARDS = {
    "pico": {"P1": "GP2", "P2": "GP3", "UNDO": "GP5", "SKUNK": "GP6", "OK": "GP7"},
    "feather_rp2040": {"P1": "D6", "P2": "D9", "UNDO": "D11", "SKUNK": "D12", "OK": "D13"},
}
RAISE_PORT = {"watchdog_modes": ("raise", "reset"), "watchdog_max_s": 8.388}  # a port with RAISE


class Stop(BaseException):
    """The script is done with the loop (not an exception the loop catches)."""


def drive(board, script):
    """code.py's loop, from power-up, on board's pin map, with script (a
    generator: one step a loop pass, on the board's clock) pressing its
    pins. Returns the drive and what ended the loop."""
    flash = fresh_flash(board)
    return flash, run_loop(flash, script)


def run_loop(flash, script):
    code = run_file(FIRMWARE + "/code.py", flash)
    real_build = code["build"]

    def pause():
        simcp.now_ms[0] += PASS_MS
        try:
            step = next(script)
        except StopIteration:
            raise Stop() from None
        if step is not None:
            step()  # in the loop, outside the script: what it raises, the loop sees

    code["build"], code["_pause"] = (lambda: real_build(flash)), pause
    with InFolder(flash):
        try:
            code["run"]()
        except (Stop, KeyboardInterrupt, simcp.ChipReset, supervisor.Reload) as e:
            return e
    return None


def passes(ms):
    for _ in range(ms // PASS_MS):
        yield


def tap(pins, name, ms=60):
    simcp.levels[pins[name]] = False
    yield from passes(ms)
    simcp.levels[pins[name]] = True
    yield from passes(40)


def enter(pins, side, points):
    for _ in range(points):
        yield from tap(pins, "P%d" % (side + 1))
    yield from tap(pins, "OK")


def stall(pins):
    """A step for the script to yield: the loop stuck, time passing, a pin
    read now and then, nothing feeding the watchdog."""
    import board
    import digitalio

    def stuck():
        pin = digitalio.DigitalInOut(getattr(board, pins["OK"]))
        for _ in range(STALL_MS // PASS_MS):
            simcp.now_ms[0] += PASS_MS
            assert pin.value in (True, False)  # read, as a loop polling its buttons would
        raise Stop()  # nothing ended it

    return stuck


def idle():
    for _ in range(STALL_MS // PASS_MS):
        yield


def reset_later(seconds):
    """Seconds of the board's clock with the watchdog looked at: whether it reset the chip."""
    for _ in range(seconds * 1000 // PASS_MS):
        simcp.now_ms[0] += PASS_MS
        try:
            simcp.check_watchdog()
        except simcp.ChipReset:
            return True
    return False


def game_then_ctrl_c(pins, seen):
    yield from passes(300)  # the watchdog starts after the first frame
    seen["mode"] = microcontroller.watchdog.mode
    for _ in range(4):
        yield from enter(pins, 0, 29)
    yield from enter(pins, 1, 5)
    yield from enter(pins, 0, 5)  # 121: the game is won
    seen["frame"] = simcp.frames[-1]
    yield from tap(pins, "OK")  # the win confirmed: logged, the next game starts
    yield from tap(pins, "P2")  # pending when Ctrl-C comes
    raise KeyboardInterrupt  # Ctrl-C on the console, between two passes


def test_on_a_reset_only_port_the_edition_plays_a_game_to_121_and_ctrl_c_commits_and_stops_the_watchdog():
    for board, pins in BOARDS.items():
        simcp.reset()
        seen = {}
        flash, ended = drive(board, game_then_ctrl_c(pins, seen))
        assert isinstance(ended, KeyboardInterrupt), (board, ended)
        assert seen["mode"] == watchdog.WatchDogMode.RESET, board  # RAISE is not there: RESET instead
        assert len(seen["frame"]) == 3 * 258, board  # Adafruit's driver sent the whole 2-track strip
        assert microcontroller.watchdog.mode is None, board  # stopped, not deinit()ed
        assert not reset_later(20), board  # nothing restarts a board left at its REPL
        again = CpTable(flash)  # the next power-up
        assert again.app.match.game.scores() == [0, 1], board  # the point pending at Ctrl-C was kept
        assert len(again.app.store.since(0, 9)) == 1, board  # the won game was logged once


def entries_then_stall(pins, entries):
    yield from passes(300)
    for side, points in entries:
        yield from enter(pins, side, points)
    yield stall(pins)
    yield from idle()  # where the port raises: the crash pattern shows, then code.py reloads


def test_on_a_reset_only_port_a_stuck_loop_resets_the_chip_the_game_goes_on_and_the_hang_is_reported():
    for board, pins in BOARDS.items():
        simcp.reset()
        flash, ended = drive(board, entries_then_stall(pins, [(0, 7), (1, 3)]))
        assert isinstance(ended, simcp.ChipReset) and ended.reason == "WATCHDOG", (board, ended)
        assert simcp.now_ms[0] >= 8388, board  # not before its timeout
        again = CpTable(flash, reason=ended.reason)
        assert again.app.match.game.scores() == [7, 3], board
        assert again.app.error == ERR_CRASH, board  # shown, as a crash is
        (entry,) = crashlog.entries(FlashFiles(flash))
        assert entry[0] == again.app.boot - 1 and entry[2].startswith("WatchdogReset: "), (board, entry)
        lines = again.ask("CRASHES")
        assert lines[0].startswith("CRASH %d " % entry[0]) and lines[-1] == "END 1", (board, lines)


def test_a_reset_that_is_not_the_watchdogs_is_not_logged_as_a_hang():
    # microcontroller.reset() (SOFTWARE) and a power cut while the game runs;
    # and code.py reloaded (a file changed) on a chip whose last reset was its
    # watchdog's: the reset reason stays until the next reset.
    for reason, run in (("SOFTWARE", "STARTUP"), ("POWER_ON", "STARTUP"), ("WATCHDOG", "AUTO_RELOAD")):
        simcp.reset()

        def reset_mid_game(pins=BOARDS["pico"], reason=reason):
            yield from passes(300)
            yield from enter(pins, 0, 6)
            if reason == "SOFTWARE":
                yield microcontroller.reset
            raise Stop()  # the power cut, or the reload: code.py stops where it is

        flash, ended = drive("pico", reset_mid_game())
        assert isinstance(ended, simcp.ChipReset if reason == "SOFTWARE" else Stop), ended
        again = CpTable(flash, reason=reason, run=run)
        assert again.app.match.game.scores() == [6, 0] and again.app.error == 0, reason
        assert crashlog.entries(FlashFiles(flash)) == [], reason


def test_on_a_port_with_raise_a_stuck_loop_is_a_logged_crash_and_a_reload():
    simcp.reset()
    simcp.port.update(RAISE_PORT)
    flash, ended = drive("pico", entries_then_stall(BOARDS["pico"], [(0, 4)]))
    assert isinstance(ended, supervisor.Reload), ended
    (entry,) = crashlog.entries(FlashFiles(flash))
    assert "WatchDogTimeout" in entry[2]
    CpTable(flash, reason="WATCHDOG", run="SUPERVISOR_RELOAD")  # code.py again: the crash is logged once
    assert len(crashlog.entries(FlashFiles(flash))) == 1


def test_the_watchdog_stand_in_is_the_raspberrypi_ports():
    simcp.reset()
    wd = microcontroller.watchdog
    assert not hasattr(wd, "deinit")  # gone in CircuitPython 10
    wd.feed()  # while it is not running: nothing
    assert wd.mode is None
    assert not reset_later(20)
    try:
        wd.timeout = 9
        raise AssertionError("9 s accepted")
    except ValueError:
        pass
    wd.timeout = 8
    try:
        wd.mode = watchdog.WatchDogMode.RAISE
        raise AssertionError("RAISE accepted")
    except NotImplementedError:
        pass
    wd.mode = watchdog.WatchDogMode.RESET
    wd.feed()
    assert not reset_later(7)
    wd.feed()
    assert reset_later(9)


def test_a_stall_of_the_boards_process_is_not_the_chips_time():
    """On a busy machine the simulated board's process may be stopped for seconds, which the chip
    would not have seen (simcp.stalls: simhw's, in cribboard sim): its watchdog does not count them;
    the time the chip did see, it does."""
    simcp.reset()
    stalled, stalls = [0], simcp.stalls
    simcp.stalls = lambda: stalled[0]
    try:
        wd = microcontroller.watchdog
        wd.timeout = 8
        wd.mode = watchdog.WatchDogMode.RESET
        simcp.now_ms[0] += 12000
        stalled[0] += 11990  # stopped all but 10 ms of it
        simcp.check_watchdog()  # no reset
        wd.feed()
        simcp.now_ms[0] += 6000
        stalled[0] += 6000
        simcp.check_watchdog()
        assert reset_later(9)  # and 9 s it saw, unfed, reset it
    finally:
        simcp.stalls = stalls
        simcp.reset()
