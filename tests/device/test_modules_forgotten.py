# On a board, loaded code lives on the heap: what a board needs once is
# dropped after it (cribapp.compat.forget). Only on MicroPython: CPython
# keeps its modules, so this suite runs on the unix port alone.
import sys

from cribapp import assemble

from rig import ByteStrip, FakeClock, FakeStream, empty_dir, own_folder

ROOT = own_folder("cribboard-forget-test")


class Edge:
    """Buttons that are never pressed unless the test says so, a byte strip."""

    def __init__(self):
        self.down = {}

    def button(self, pin, active_low):
        return lambda: self.down.get(pin, False)

    def strip(self, pin, n):
        return ByteStrip(n)

    def board_id(self):
        return "forget-test"

    def watchdog_reset(self):
        return False


def run(app, clock, ms):
    for _ in range(ms // 10):
        clock.advance(10)
        app.step()


def test_what_the_board_needs_once_is_not_kept():
    empty_dir(ROOT)
    edge = Edge()
    clock = FakeClock()
    app = assemble.build(ROOT, edge, FakeStream(), clock)
    loaded = [name for name in assemble.BOOT_ONLY if name in sys.modules]
    assert loaded == [], loaded  # the builder and the boot-time readers are gone
    run(app, clock, 50)  # on a moment before anyone presses (a button held at power-up is ignored)
    ok = 7  # the default pin map's OK
    edge.down[ok] = True
    run(app, clock, 400)  # held past a tap: the menu is read from the flash before the long press
    assert "cribapp.menu" in sys.modules
    assert app.menu is None
    edge.down[ok] = False
    run(app, clock, 100)  # let go before the long press: a tap, and the menu is not kept
    assert "cribapp.menu" not in sys.modules
    assert app.menu is None
    edge.down[ok] = True
    run(app, clock, 900)  # hold OK: the menu
    assert "cribapp.menu" in sys.modules
    edge.down[ok] = False
    run(app, clock, 100)
    edge.down[5] = True  # UNDO leaves the menu
    run(app, clock, 60)
    edge.down[5] = False
    run(app, clock, 100)
    assert "cribapp.menu" not in sys.modules
    g = app.match.game
    while not g.over():
        for _ in range(29):
            edge.down[2] = True  # P1
            run(app, clock, 60)
            edge.down[2] = False
            run(app, clock, 40)
        run(app, clock, 2100)
    edge.down[ok] = True
    run(app, clock, 60)
    edge.down[ok] = False
    run(app, clock, 100)  # the won game is logged
    assert app.store.last_seq == 1
    assert "cribcore.record" not in sys.modules
    assert "cribcore.names" not in sys.modules
