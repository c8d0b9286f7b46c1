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
