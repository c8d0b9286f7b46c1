# A board that never freezes: an exception anywhere in the loop is logged on
# the flash (bounded, oldest first out), shown on the LEDs, and the board
# restarted with the game as it was last saved; a board that crashes soon
# after every boot stops restarting; the host reads and clears the log.
import json

from cribapp import codes as board
from cribapp import crashlog, mainloop
from cribapp import render as rc

from rig import FakeFlash, Table


class Restarted(Exception):
    pass


class Interrupted(Exception):
    pass


def restart():
    raise Restarted()


def describe(e):
    return "Traceback (most recent call last):\n  ...\n%s: %s\n" % (type(e).__name__, e)


def once(obj, name, message):
    """Make obj.name raise once, then behave again."""
    real = getattr(obj, name)
    calls = [0]

    def broken(*args):
        calls[0] += 1
        if calls[0] == 1:
            raise RuntimeError(message)
        return real(*args)

    setattr(obj, name, broken)


def run_until_restart(t, frames=None):
    def pause():
        t.clock.advance(10)
        if frames is not None:
            frames.append(t.renderer.writes)

    try:
        mainloop.run(lambda: t.app, pause, describe, restart)
    except Restarted:
        return True
    return False


def crash_at(part):
    """A board with a saved game whose loop fails once at `part`."""
    t = Table()
    t.connect()
    t.enter(0, 7)
    t.enter(1, 3)
    app = t.app
    if part == "buttons":
        once(app.keypad, "poll", "a button driver failed")
    elif part == "link":
        once(app.link, "poll", "the link failed")
    elif part == "drawing":
        t.tap("P1")  # a point pending: frames to draw
        once(app.renderer, "finish", "the strip failed")
    elif part == "saving":
        t.tap("P2")  # a point pending: the idle timer counts it, and saving it fails
        once(app.store, "save", "the flash failed")
    return t


def test_an_exception_in_any_part_of_the_loop_is_logged_shown_and_the_board_restarts_with_its_game():
    for part, message in (
        ("buttons", "a button driver failed"),
        ("link", "the link failed"),
        ("drawing", "the strip failed"),
        ("saving", "the flash failed"),
    ):
        t = crash_at(part)
        writes = t.renderer.writes
        assert run_until_restart(t), part
        (entry,) = crashlog.entries(t.flash)
        boot, uptime, text = entry
        assert boot == t.app.boot and uptime >= 0 and ("RuntimeError: " + message) in text, (part, entry)
        assert t.renderer.writes > writes  # the crash pattern was drawn
        again = Table(flash=t.flash.restarted())
        assert again.app.match.game.scores() == [7, 3], part  # the game as it was saved
        assert again.app.boot == boot + 1


def test_a_crash_restarted_through_the_watchdog_is_logged_once():
    # rp2's machine.reset() is a reset through the watchdog: reset_cause() says WDT_RESET.
    t = crash_at("link")
    assert run_until_restart(t)
    again = Table(flash=t.flash.restarted(), watchdog_reset=True)
    (entry,) = crashlog.entries(again.flash)
    assert "RuntimeError: the link failed" in entry[2]


def test_the_crash_pattern_is_all_seven_game_point_leds_of_track_1_blinking_red():
    t = crash_at("buttons")
    shown = []
    real = t.renderer.finish

    def keep():
        out = real()
        shown.append([t.rgb(i) for i in t.layout.points[0]])
        return out

    t.renderer.finish = keep
    assert run_until_restart(t)
    red = t.renderer.colour(rc.ERROR)
    assert board.ERR_CRASH == 7
    assert [red] * 7 in shown
    assert [(0, 0, 0)] * 7 in shown


def test_a_board_that_crashes_soon_after_every_boot_stops_restarting_and_keeps_showing_it():
    flash = FakeFlash()
    for _ in range(3):
        t = Table(flash=flash)
        once(t.app.keypad, "poll", "broken at boot")
        passes = [0]

        def pause(t=t, passes=passes):
            t.clock.advance(10)
            passes[0] += 1
            if passes[0] > 1000:  # ten seconds of blinking: the board is not restarting
                raise Interrupted()

        try:
            mainloop.run(lambda t=t: t.app, pause, describe, restart)
            raise AssertionError("the loop returned")
        except Restarted:
            restarted = True
        except Interrupted:
            restarted = False
        flash = t.flash.restarted()
    assert not restarted  # the third crash in a row, each soon after its boot
    assert [e[0] for e in crashlog.entries(flash)] == [1, 2, 3]


def test_the_crash_log_keeps_the_newest_within_its_bound_and_drops_a_torn_line():
    flash = FakeFlash()
    for n in range(20):
        crashlog.append(flash, n, 5, "Traceback ...\nValueError: crash %d %s\n" % (n, "x" * 400))
    kept = crashlog.entries(flash)
    assert flash.size(crashlog.CRASH_LOG) <= crashlog.MAX_BYTES
    assert kept[-1][0] == 19
    assert [e[0] for e in kept] == list(range(20 - len(kept), 20))
    flash.disk[crashlog.CRASH_LOG] += b'3 5 "torn'  # a power cut mid-write of an old log
    assert [e[0] for e in crashlog.entries(flash)] == [e[0] for e in kept]
    long_trace = "Traceback\n" + "  line\n" * 1000 + "MemoryError: the end is kept\n"
    crashlog.append(flash, 30, 1, long_trace)
    assert crashlog.entries(flash)[-1][2].endswith("MemoryError: the end is kept\n")


def test_the_host_reads_the_crash_log_over_the_link_and_clears_what_it_stored():
    t = crash_at("link")
    assert run_until_restart(t)
    again = Table(flash=t.flash.restarted())
    again.connect()
    lines = again.ask("CRASHES")
    from cribcore.seal import unseal

    replies = [unseal(x) for x in lines]
    assert replies[-1] == "END 1"
    assert replies[0].startswith("CRASH 1 ")
    assert "the link failed" in json.loads(replies[0].split(" ", 3)[3])
    assert [unseal(x) for x in again.ask("CRASHES CLEAR 1")] == ["OK CRASHES CLEAR 1"]
    assert [unseal(x) for x in again.ask("CRASHES")] == ["END 0"]
