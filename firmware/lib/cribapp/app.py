# The board's loop: it routes gestures to the session (or the menu), runs
# the timers (pending points, views, the error flash), saves after every
# change, tells a listening host, and draws with the match's view. The
# rules are the session's; hardware comes in through the constructor.
import json

from cribapp import FIRMWARE_VERSION
from cribapp import button as gesture
from cribapp import render as rc
from cribapp.boardview import tally, view_for
from cribapp.codes import (
    ADDED,
    ERR_FULL,
    ERR_LOG,
    ERR_REFUSED,
    ERR_STATE,
    MATCH_VIEW,
    MENU,
    PLAY,
    REFUSED,
    SETTINGS,
    SKUNK_VIEW,
    TOLD,
    WON,
)
from cribapp.compat import const, forget
from cribapp.store import FULL, LOG_TORN, STATE_CORRUPT, BoardFields, state

# The loop's numbers, const and private: the compiler puts them in place
# (no global lookups, no names kept on the heap).
_COMMIT_MS = const(2000)  # pending points commit after this long without a press
_VIEW_MS = const(4000)  # skunk and match views
_ERROR_MS = const(600)  # a refused entry
_BOOT_ERROR_MS = const(3000)  # a problem found at boot
_BLINK_MS = const(250)


class App:
    def __init__(self, layout, keypad, renderer, clock, store, board_id="board", boot_error=0):
        self.layout = layout
        self.keypad = keypad
        self.renderer = renderer
        self.clock = clock
        self.store = store
        self.link = None
        self.club = None  # a WiFi board's reports to its club (cribclub.sender), polled like the link
        self.club_start = None  # the edge's way to (re)start it, with the settings a host just gave (club_start(app))
        self.names = [b.name for b in keypad.buttons]
        self.mode = PLAY
        self.mode_until = 0
        self.pending_at = 0  # the last press of the points being entered
        self.error = 0
        self.error_until = 0
        self.version = 0  # bumped on every change the LEDs must show
        self._drawn = -1
        self._drawn_phase = -1
        self._tally = [0, 0, 0]
        self._show = False
        self._diff = clock.ticks_diff  # bound once: a bound method made per pass would allocate
        self.menu = None
        self._unsaved = False  # a change drawn in this pass, saved at its end (settle)
        self._news = []  # what to tell a listening host once it is saved: (what, event)
        now = clock.ticks_ms()
        self._blink_at = now  # the last gesture: a change is shown at once, its blink starting lit
        self.started_at = now  # for a crash's uptime
        self.board = BoardFields(board_id, renderer.brightness)
        from cribapp.restore import power_up  # once a power-up: forgotten after (cribapp.assemble)

        self.session = power_up(store, layout.tracks, self.board)
        self._view = view_for(self.session.match)
        if self.board.brightness != renderer.brightness:
            renderer.set_brightness(self.board.brightness)
        self._unsaved = True  # this boot counted on the flash once the first frame is out (settle)
        problems = store.problems
        code = boot_error
        if not code:
            if STATE_CORRUPT in problems:
                code = ERR_STATE
            elif LOG_TORN in problems:
                code = ERR_LOG
            elif FULL in problems:
                code = ERR_FULL
        if code:
            self.warn(code, now, _BOOT_ERROR_MS)

    @property
    def match(self):
        """The match being played (the core's model: read, not changed)."""
        return self.session.match

    @property
    def boot(self):
        return self.board.boot

    def attach(self, link):
        """Serve the serial link from the loop (main.py builds it)."""
        self.link = link

    def save(self):
        """Save now (power-up, a host's change); the loop collects the save's
        garbage after the pass, as after any change."""
        self._write()
        self.version += 1

    def _write(self):
        board = self.board
        board.up = self._diff(self.clock.ticks_ms(), self.started_at)
        if not self.store.save(state(self.session, board, self.store.last_seq)):
            self.warn(ERR_FULL, self.clock.ticks_ms(), _BOOT_ERROR_MS)

    def finish(self):
        """The loop was left on purpose (Ctrl-C): the points being entered
        are counted and the state saved as stopped (up None), so the next
        power-up does not take this stop for a hang."""
        self.commit(self.clock.ticks_ms())
        self.settle()
        self.board.up = None
        self.store.save(state(self.session, self.board, self.store.last_seq))

    def settle(self):
        """Save the change this pass made and tell a listening host about it.
        step() calls it once the change is drawn: the LEDs answer a gesture
        first, and the save (10-35 ms on a Pico) follows. A power cut in
        between loses what was shown for those milliseconds, as a cut a
        moment before the press would have; nothing saved is ever lost.
        The loop calls it at Ctrl-C, not after a crash: a session may be
        half changed when something raises, and a saved state must not be."""
        if not self._unsaved:
            return
        self._unsaved = False
        self._write()
        news = self._news
        while news:
            what, event = news.pop(0)
            self.tell(what, event)

    # --- the loop ------------------------------------------------------------
    def step(self):
        """One pass: read the buttons, run timers, serve the link, draw."""
        diff = self._diff
        now = self.clock.ticks_ms()
        ev = self.keypad.poll(now, diff)
        if ev:
            self.handle(self.names[ev >> 3], ev & 7, now)
        if self.session.waiting() and diff(now, self.pending_at) >= _COMMIT_MS:
            self.commit(now)
        if (self.mode == SKUNK_VIEW or self.mode == MATCH_VIEW) and diff(now, self.mode_until) >= 0:
            self.mode = PLAY
            self.version += 1
        if self.error and diff(now, self.error_until) >= 0:
            self.error = 0
            self.version += 1
        if self.link is not None:
            self.link.poll()
        self.draw(now)
        if self.club is not None:  # after the draw: a gesture this pass is shown before the network's step
            self.club.poll(now)
        if self._unsaved:
            self.settle()

    def handle(self, name, g, now):
        """One gesture of one button."""
        if g == gesture.HOLD:  # nothing to show yet
            if name == "OK" and self.mode != MENU:
                import cribapp.menu  # noqa: F401  # read from the flash now: the long press opens it at once
            return
        self.version += 1
        self._blink_at = now
        if self.mode == MENU:
            self._menu_press(name, g, now)
        elif name == "P1" or name == "P2" or name == "P3":
            if g == gesture.PRESS or g == gesture.REPEAT:
                self.mode = PLAY
                outcome = self.session.press(int(name[1]) - 1, now)
                if outcome != REFUSED:
                    self.pending_at = now  # the idle timer starts again
                self.done(outcome, now)
        elif name == "UNDO":
            if g == gesture.TAP:
                self.done(self.session.undo(), now)
            elif g == gesture.LONG:
                self.done(self.session.redo(now), now)
        elif name == "SKUNK":
            if g == gesture.TAP and self.session.pending and self.session.match.game.TENS:
                outcome = self.session.tens()  # piquet: ten more on the points being entered
                if outcome != REFUSED:
                    self.pending_at = now
                self.done(outcome, now)
            elif g == gesture.TAP or g == gesture.LONG:
                self.mode = SKUNK_VIEW if g == gesture.TAP else MATCH_VIEW
                self.mode_until = self.clock.ticks_add(now, _VIEW_MS)
        elif name == "OK":
            if g == gesture.TAP:
                forget("cribapp.menu")  # readied by a HOLD that did not become a long press
                self.done(self.session.ok(now), now)
            elif g == gesture.LONG:
                self.commit(now)
                self._open_menu()

    def commit(self, now):
        """Count the points being entered (the idle timer, Ctrl-C, the menu)."""
        self.done(self.session.commit(now), now)

    def done(self, outcome, now):
        """What a command came to: flash a refusal, log a won game, save and
        tell a listening host what changed."""
        if outcome == REFUSED:
            self.warn(ERR_REFUSED, now, _ERROR_MS)
            return
        if outcome == WON:
            if not self._log_game(now):
                return
            outcome = self.session.advance()
            self._view = view_for(self.session.match)  # a new match may be another game
        if outcome >= ADDED:
            self.version += 1
            self._unsaved = True  # saved, and a host told, once drawn (settle)
            self._news.append((TOLD[outcome], self.session.last if outcome == ADDED else None))

    def _log_game(self, now):
        rec = self.game_record(now)
        if self.store.append(self.session.key(), json.dumps(rec)) < 0:
            self.warn(ERR_FULL, now, _BOOT_ERROR_MS)
            return False
        return True

    def game_record(self, now):
        """The record of the current (finished) game, as synced to the host."""
        rec = self.session.record()
        rec["board"] = self.board.id
        rec["boot"] = self.board.boot
        rec["ticks"] = now
        wall = self.board.wall
        rec["wall"] = list(wall) if wall else None
        rec["firmware"] = FIRMWARE_VERSION
        return rec

    def warn(self, code, now, ms):
        """Blink error pattern `code` for ms from now (cribapp.codes)."""
        self.error = code
        self.error_until = self.clock.ticks_add(now, ms)
        self.version += 1

    # --- the menu (cribapp.menu, loaded when it is first opened) ------------------
    def _open_menu(self):
        from cribapp.menu import Menu

        s = self.session
        self.menu = Menu(self.renderer, self.layout.tracks, s.settings, self.board.brightness, s.count_show)
        self.mode = MENU

    def _menu_press(self, name, g, now):
        from cribapp.menu import APPLY, ITEM_NEW_GAME, ITEM_NEW_MATCH, LEAVE

        menu = self.menu
        if menu is None:
            return
        outcome = menu.press(name, g)
        if outcome == LEAVE or outcome == APPLY:
            self.mode = PLAY
            self.menu = None
            forget("cribapp.menu")  # loaded again when next opened
        if outcome != APPLY:
            return
        item, settings, brightness, count_show = menu.chosen()
        self.board.brightness = brightness
        self.renderer.set_brightness(brightness)
        s = self.session
        s.count_show = count_show  # a way of entering, not a match setting
        if item == ITEM_NEW_GAME:
            s.restart_game()  # the same match: this game's events are dropped
        elif item == ITEM_NEW_MATCH or settings != s.settings:
            s.new_match(settings)  # the menu offers only what this board can play
            self._view = view_for(s.match)
        self.done(SETTINGS, now)

    # --- a listening host (cribapp.hostapi is what the link may ask and do) -----
    def tell(self, what, event):
        """Tell a listening host what changed (a live event)."""
        if self.link is not None and self.link.listening():
            m = self.session.match
            g = m.game
            self.link.event(
                {
                    "what": what,
                    "event": list(event) if event else None,
                    "scores": g.scores(),
                    "dealer": g.dealer(),
                    "winner": g.winner(),
                    "game_no": len(m.closed) + 1,
                }
            )

    # --- drawing -------------------------------------------------------------------
    def draw(self, now):
        phase = ((self._diff(now, self._blink_at) // _BLINK_MS) & 1) ^ 1  # lit first after a gesture
        if self._drawn == self.version and (self._drawn_phase == phase or not self._blinking()):
            return False
        s = self.session
        if self._drawn != self.version:
            # Standings and the show's order allocate: once per change, not per blink.
            self._tally = tally(s.match)
            self._show = s.showing()
        self._drawn = self.version
        self._drawn_phase = phase
        r = self.renderer
        view = self._view
        r.begin()
        menu = self.menu
        if menu is not None:
            menu.draw(r)
        elif self.mode == MATCH_VIEW:
            view.match(r, s.match, self._tally)
        else:
            view.board(r, s.match, self._tally, phase, s.pending, s.side, self._show)
            if self.mode == SKUNK_VIEW:
                view.skunk(r, s.match.game)
        if self.error and phase:
            r.points(0, self.error, rc.ERROR)
        return r.finish()

    def _blinking(self):
        return self.session.pending or self.error or self.session.match.game.over()
