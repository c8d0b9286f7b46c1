# The loop's watchdog: fed from a timer while the loop makes progress, so a
# loop stuck anywhere restarts the board, while a board left at its REPL
# with Ctrl-C (for mpremote, for a deploy) is never restarted under it.
from cribmp.watchdog import TICK_MS, TIMEOUT_MS, LoopWatch

from cribapp import crashlog, mainloop
from cribapp.codes import ERR_CRASH
from cribapp.linkwait import LinkWait

from rig import Table


class WatchdogReset(BaseException):
    """The hardware restarting the chip: not an exception the loop sees."""


class FakeWDT:
    """machine.WDT and the timer that ticks the watch, on the table's clock."""

    def __init__(self, clock):
        self.clock = clock
        self.fed_at = clock.ticks_ms()
        self.tick_at = clock.ticks_ms()
        self.watch = LoopWatch(self.feed)
        self.fired = False

    def feed(self):
        self.fed_at = self.clock.ticks_ms()

    def advance(self, ms):
        """Time passes: the timer ticks the watch (soft interrupts run even
        inside a stuck Python loop), and the watchdog bites if unfed."""
        for _ in range(ms // 10):
            self.clock.advance(10)
            if self.clock.ticks_diff(self.clock.ticks_ms(), self.tick_at) >= TICK_MS:
                self.tick_at = self.clock.ticks_ms()
                self.watch.tick()
            if self.clock.ticks_diff(self.clock.ticks_ms(), self.fed_at) > TIMEOUT_MS:
                self.fired = True
                raise WatchdogReset()


def hang_at(wdt, obj, name):
    """The next call of obj.name never returns."""

    def stuck(*args):
        while True:
            wdt.advance(10)

    setattr(obj, name, stuck)


def test_a_loop_stuck_in_any_part_is_restarted_by_the_watchdog_with_its_game():
    for part in ("buttons", "link", "drawing", "saving"):
        t = Table()
        t.connect()
        t.enter(0, 9)
        t.enter(1, 4)
        wdt = FakeWDT(t.clock)
        app = t.app
        if part == "buttons":
            hang_at(wdt, app.keypad, "poll")
        elif part == "link":
            hang_at(wdt, app.link, "poll")
        elif part == "drawing":
            t.tap("P1")  # a point blinking: frames to draw
            hang_at(wdt, app.renderer, "finish")
        else:
            t.tap("P2")  # a point to count: the idle timer saves it
            hang_at(wdt, app.store, "save")
        try:
            mainloop.run(lambda app=app: app, lambda w=wdt: w.advance(10), watchdog=lambda w=wdt: w.watch)
        except WatchdogReset:
            pass
        assert wdt.fired, part
        again = Table(flash=t.flash.restarted())
        assert again.app.match.game.scores() == [9, 4], part


def hung_board():
    """A board with a saved game whose loop hung until its watchdog reset it."""
    t = Table()
    t.connect()
    t.enter(0, 9)
    t.enter(1, 4)
    wdt = FakeWDT(t.clock)
    hang_at(wdt, t.app.keypad, "poll")
    try:
        mainloop.run(lambda: t.app, lambda: wdt.advance(10), watchdog=lambda: wdt.watch)
    except WatchdogReset:
        pass
    assert wdt.fired
    return t


def test_a_hang_is_logged_at_the_next_boot_shown_and_the_host_can_fetch_it():
    t = hung_board()
    up = t.state()["up"]  # the hung boot's last save, ms after its start
    again = Table(flash=t.flash.restarted(), watchdog_reset=True)
    assert again.app.match.game.scores() == [9, 4]
    (entry,) = crashlog.entries(again.flash)
    assert entry[0] == t.app.boot and entry[1] == up > 0, entry
    assert entry[2].startswith("WatchdogReset: ")
    assert "boot %d" % t.app.boot in entry[2]
    assert again.error() == ERR_CRASH  # shown as a crash is, then play goes on
    again.connect()
    lines = again.ask("CRASHES")
    assert lines[0].startswith("CRASH %d %d " % (t.app.boot, up)) and lines[-1].startswith("END 1 "), lines
    assert again.ask("CRASHES CLEAR 1")[0].startswith("OK CRASHES CLEAR 1 ")
    third = Table(flash=again.flash.restarted())  # then a power cut: nothing more to say
    assert crashlog.entries(third.flash) == []
    assert third.error() == 0


def test_a_reset_after_ctrl_c_or_a_power_cut_is_not_taken_for_a_hang():
    # rp2's reset_cause() says WDT_RESET after machine.reset() too: mpremote's
    # reset once the program was stopped for a deploy.
    t = Table()
    t.enter(0, 5)
    t.tap("P2")  # pending at Ctrl-C

    def ctrl_c():
        raise KeyboardInterrupt

    try:
        mainloop.run(lambda: t.app, ctrl_c)
    except KeyboardInterrupt:
        pass
    again = Table(flash=t.flash.restarted(), watchdog_reset=True)
    assert again.app.match.game.scores() == [5, 1]  # the pending point was counted and saved as stopped
    assert crashlog.entries(again.flash) == []
    assert again.error() == 0
    cut = Table(flash=again.flash.restarted())  # the power cut, while it ran: no watchdog, nothing logged
    assert crashlog.entries(cut.flash) == []
    assert cut.error() == 0


def test_a_running_loop_and_a_board_left_at_its_repl_are_never_restarted():
    t = Table()
    wdt = FakeWDT(t.clock)
    passes = [0]

    def pause():
        wdt.advance(10)
        passes[0] += 1
        if passes[0] == 3000:  # 30 s of play, then Ctrl-C
            raise KeyboardInterrupt

    try:
        mainloop.run(lambda: t.app, pause, watchdog=lambda: wdt.watch)
    except KeyboardInterrupt:
        pass
    assert not wdt.fired
    assert wdt.watch.resting
    wdt.advance(120000)  # two minutes at the REPL: mpremote, a deploy
    assert not wdt.fired


def test_the_watch_allocates_nothing_and_its_counter_stays_small():
    w = LoopWatch(lambda: None)
    for _ in range(70000):
        w.alive()
    assert 0 <= w.passes <= 0xFFFF


def test_the_loop_collects_after_each_change_once_drawn_never_on_idle_or_blinking_passes():
    t = Table()
    collected = []
    passes = [0]

    def pause():
        t.clock.advance(10)
        passes[0] += 1
        n = passes[0]
        t.levels["P1"] = 100 <= n < 106  # a press at pass 100: a point pending, blinking
        t.levels["OK"] = 150 <= n < 156  # OK at pass 150 counts it: a save
        if n == 400:
            raise KeyboardInterrupt

    def collect():
        collected.append((passes[0], t.renderer.writes))

    try:
        mainloop.run(lambda: t.app, pause, collect=collect)
    except KeyboardInterrupt:
        pass
    assert t.app.match.game.scores() == [1, 0]
    at = [n for n, _ in collected]
    # The first pass (booting's garbage), the press (debounced) and OK's release: three, each after
    # its frame was written; none in the 250 passes of blinking and idling around them.
    assert len(at) == 3 and at[0] == 0 and 101 < at[1] < 105 and 156 < at[2] < 160, collected
    assert all(writes > 0 for _, writes in collected)


def test_the_link_is_attached_once_after_the_first_frame():
    # A board built without its link (MicroPython's edge) gets it in the
    # pass after its first frame: the board shows its score first.
    from rig import FakeStream

    t = Table()
    t.app.version += 1  # something to draw in the loop's first pass
    connected = []
    passes = [0]

    def pause():
        t.clock.advance(10)
        passes[0] += 1
        if passes[0] == 20:
            raise KeyboardInterrupt

    def connect(app):
        connected.append((passes[0], app.draw(t.clock.ticks_ms())))  # False: nothing left to draw
        stream = FakeStream()
        app.attach(LinkWait(stream, app))

    try:
        mainloop.run(lambda: t.app, pause, connect=connect)
    except KeyboardInterrupt:
        pass
    assert connected == [(0, False)]  # once, in the first pass, after its frame
    assert type(t.app.link).__name__ == "LinkWait"


def test_a_board_on_for_days_keeps_its_match_and_still_reports_a_hang():
    # The ticks wrap after half their period (6 days on MicroPython, 3 on
    # CircuitPython): the time into the boot then reads below 0.
    t = Table()
    t.enter(0, 6)
    t.app.started_at = t.clock.ticks_add(t.clock.ticks_ms(), 1 << 29)  # its start now reads as the future
    t.enter(1, 2)
    assert t.state()["up"] < 0
    again = Table(flash=t.flash.restarted(), watchdog_reset=True)
    assert again.app.match.game.scores() == [6, 2]
    assert again.error() == ERR_CRASH
    (entry,) = crashlog.entries(again.flash)
    assert entry[1] == 0
    assert entry[2].startswith("WatchdogReset: ")


def test_a_watch_at_rest_from_boot_keeps_the_board_up_until_the_loop_takes_it_over():
    # boot.py starts the watchdog at rest (cribmp.start.rest): a soft reset
    # ended the timer that fed the app's, and the board sits at its REPL for
    # mpremote. The loop takes it over once its first frame is out
    # (cribmp.start._watchdog wakes it): from then on a stuck loop restarts it.
    t = Table()
    t.connect()
    t.enter(0, 9)
    wdt = FakeWDT(t.clock)
    wdt.watch.rest()
    wdt.advance(3 * TIMEOUT_MS)  # at its REPL, or booting: never restarted
    assert not wdt.fired
    t.tap("P2")  # a point to count: the idle timer saves it, after the first pass

    def stuck(*args):
        for _ in range(3 * TIMEOUT_MS // 10):
            wdt.advance(10)
        raise AssertionError("a stuck loop was fed")

    t.app.store.save = stuck

    def take_over(w=wdt):
        w.watch.wake()
        return w.watch

    try:
        mainloop.run(lambda: t.app, lambda: wdt.advance(10), watchdog=take_over)
    except WatchdogReset:
        pass
    assert wdt.fired
