# A frame allocates nothing in steady state: the budget is 0 bytes, and a
# regression (a closure cell, a slice, a tuple) would otherwise go unseen.
# MicroPython only: CPython's gc cannot count heap bytes.
import gc

from rig import ByteStrip, FakeClock, Table


def allocated(t, frames):
    app = t.app
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(frames):
        t.clock.advance(250)  # the next blink phase: a new frame each time
        app.draw(t.clock.ticks_ms())
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def test_blinking_frames_allocate_nothing():
    # Far from the ticks counter's wrap: the blink phase comes from the ticks,
    # and where they wrap one phase lasts twice (a frame rightly not rewritten).
    t = Table(strip=ByteStrip, clock=FakeClock(start=0))
    t.enter(0, 14)
    t.tap("P2")  # a pending point blinks
    t.run(100)
    writes = t.renderer.writes
    assert allocated(t, 100) == 0
    assert t.renderer.writes - writes == 100  # and every one was drawn and written


def test_the_skunk_view_and_a_won_game_allocate_nothing_per_frame():
    t = Table(strip=ByteStrip, budget=60)  # the limiter at work too
    t.enter(0, 29)
    t.enter(1, 3)
    t.tap("SKUNK")
    assert allocated(t, 10) == 0
    for _ in range(4):
        t.enter(0, 29)
    assert t.app.match.game.over()
    t.run(300)
    assert allocated(t, 50) == 0


def stepped(t, passes, ms=10):
    """Bytes allocated by `passes` loop passes (App.step), the clock moving on."""
    app = t.app
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(passes):
        t.clock.advance(ms)
        app.step()
    used = gc.mem_alloc() - before
    gc.enable()
    return used


def test_a_loop_pass_allocates_nothing_idle_blinking_in_the_views_and_in_the_menu():
    from cribapp import render as rc

    t = Table(strip=ByteStrip, clock=FakeClock(start=0))
    t.connect()  # a host plugged in: the link is polled every pass too
    t.enter(0, 14)
    t.run(100)
    assert stepped(t, 200) == 0, "idle"
    t.levels["P2"] = True  # a point pressed: it blinks, pending, until the idle timer
    t.run(60)
    t.levels["P2"] = False
    t.run(40)
    assert stepped(t, 100) == 0, "blinking"
    assert t.pending(1) == 1
    t.run(2000)  # the point counts (saving it allocates: an event, not a pass)
    assert t.pending(1) == 0
    assert t.app.match.game.scores() == [14, 1]
    t.tap("SKUNK")
    assert t.hole_rgb(1, 31) == t.renderer.colour(rc.LINE)
    assert stepped(t, 100) == 0, "skunk view"
    t.hold("SKUNK", 900)
    assert t.hole_rgb(0, 2) == t.renderer.colour(rc.MARK)
    assert t.hole_rgb(0, 15) == (0, 0, 0)
    assert stepped(t, 100) == 0, "match view"
    t.hold("OK", 900)
    assert t.menu_shown() == (0, 0)
    assert stepped(t, 100) == 0, "menu"
