# The board's app loop: gestures become commands on the match model, the
# model is saved after every change, and the renderer draws the state.
# Hardware comes in through the constructor; nothing here touches a pin.
import json

from cribapp import FIRMWARE_VERSION
from cribapp import button as gesture
from cribapp import render as rc
from cribapp.boardview import draw_board, draw_piquet, draw_skunk, tally
from cribapp.compat import TICKS_PERIOD, const
from cribapp.matchstate import PIQUET, STATE_VERSION, match_for, restore
from cribapp.store import FULL, LOG_TORN, STATE_CORRUPT
from cribcore import record
from cribcore.game import MAX_ENTRY, PEGGING, POINTS
from cribcore.match import SCHEME_ORDER, Match
from cribcore.names import check_names, names_for

# The loop's numbers, const: the compiler puts them in place (no global
# lookups, and a tuple of them is a constant, not one built per pass).
COMMIT_MS = const(2000)  # pending points commit after this long without a press
VIEW_MS = const(4000)  # skunk and match views
ERROR_MS = const(600)  # a refused entry
BOOT_ERROR_MS = const(3000)  # a problem found at boot
BLINK_MS = const(250)

# What the error pattern says: this many game-point LEDs of track 1 blink red.
ERR_REFUSED = const(1)
ERR_STATE = const(2)
ERR_LOG = const(3)
ERR_FULL = const(4)
ERR_CONFIG = const(5)
ERR_DEPLOY = const(6)
ERR_CRASH = const(7)  # all seven: the program crashed (logged; the board restarts)

PLAY = const(0)
SKUNK_VIEW = const(1)
MATCH_VIEW = const(2)
MENU = const(3)

DEFAULT_SETTINGS = {"game": "cribbage", "players": 2, "target": 121, "scheme": "acc", "best_of": 3,
                    "first_to": None}


class App:
    def __init__(self, layout, keypad, renderer, clock, store, board_id="board", boot_error=0):
        self.layout = layout
        self.keypad = keypad
        self.renderer = renderer
        self.clock = clock
        self.store = store
        self.board_id = board_id
        self.link = None
        self.names = [b.name for b in keypad.buttons]
        self.mode = PLAY
        self.mode_until = 0
        self.pending = 0
        self.pending_side = -1
        self.pending_at = 0
        self.held = False  # the pending points were refused: they wait for OK or UNDO
        self.error = 0
        self.error_until = 0
        self.version = 0  # bumped on every change the LEDs must show
        self._drawn = -1
        self._drawn_phase = -1
        self._tally = [0, 0, 0]
        self._show = False
        self._diff = clock.ticks_diff  # bound once: a bound method made per pass would allocate
        self.menu_item = 0
        self.menu_values = []
        self.acked = 0
        self.match_no = 0
        self.boot = 0
        self.brightness = renderer.brightness
        self.settings = dict(DEFAULT_SETTINGS)
        self.match = Match()
        self.pq = None  # the piquet module, once a partie is played
        self.wall = None  # (unix seconds, ticks) from the host, if it told us
        self.player_names = None  # one a track, from the host (NAMES); None: never given
        self.count_show = False  # the setting: pegging, then each hand and the crib, by kind
        self.show_open = False  # OK ended this deal's pegging: entries are the show's
        now = clock.ticks_ms()
        self.started_at = now  # for a crash's uptime
        self._boot(now, boot_error)

    # --- state ---------------------------------------------------------------
    def attach(self, link):
        """Serve the serial link from the loop (main.py builds it)."""
        self.link = link

    def _boot(self, now, boot_error):
        state = self.store.load()
        restored = False
        if state is not None:
            try:
                self._restore(state)
                restored = True
            except (ValueError, KeyError, TypeError, IndexError):
                self.store.problems.append(STATE_CORRUPT)
        if not restored:
            # Number on from the last logged game, so match numbers never repeat.
            if self.store.last_key and isinstance(self.store.last_key[0], int):
                self.match_no = self.store.last_key[0]
            self._new_match(self.settings, 0)
        self.boot += 1
        # A power cut after logging a finished game but before saving the next
        # one: finish that step now, so the game is never logged twice.
        if self.match.game.over() and self.store.last_key == self._key():
            self._advance()
        self.save()
        problems = self.store.problems
        code = boot_error
        if code:
            pass
        elif STATE_CORRUPT in problems:
            code = ERR_STATE
        elif LOG_TORN in problems:
            code = ERR_LOG
        elif FULL in problems:
            code = ERR_FULL
        if code:
            self._flash(code, now, BOOT_ERROR_MS)

    def _restore(self, state):
        self._check_settings(state["settings"])
        self.match = restore(state)
        if self.piquet(state["settings"]):
            from cribcore import partie

            self.pq = partie
        self.settings = state["settings"]
        self.match_no = state["match_no"]
        self.boot = state["boot"]
        self.acked = state.get("acked", 0)
        names = state.get("names")
        if names is not None:
            check_names(names, len(names))
        self.player_names = names
        self.count_show = state.get("count_show", False) is True
        self.show_open = state.get("show_open", False) is True
        b = state.get("brightness", self.brightness)
        if b != self.brightness:
            self.renderer.set_brightness(b)
            self.brightness = b

    def _check_settings(self, s):
        if s["players"] == 3 and self.layout.tracks < 3:
            raise ValueError("3 players need a 3-track board")
        self._match_for(s, 0)

    def _match_for(self, s, dealer):
        m = match_for(s, dealer)
        if self.piquet(s):
            from cribcore import partie

            self.pq = partie
        return m

    def piquet(self, settings=None):
        return (settings or self.settings).get("game") == PIQUET

    def state(self):
        """The live state as saved: small, since finished games are in the log."""
        g = self.match.game
        return {
            "v": STATE_VERSION,
            "board": self.board_id,
            "boot": self.boot,
            "match_no": self.match_no,
            "settings": self.settings,
            "closed": [list(r) for r in self.match.closed],
            "dealer": g.first_dealer,
            "events": [list(e) for e in g.events],
            "cursor": g.cursor,
            "brightness": self.brightness,
            "acked": self.acked,
            "names": self.player_names,
            "count_show": self.count_show,
            "show_open": self.show_open,
        }

    def save(self):
        if not self.store.save(self.state()):
            self._flash(ERR_FULL, self.clock.ticks_ms(), BOOT_ERROR_MS)
        self.version += 1

    def _key(self):
        return (self.match_no, len(self.match.closed) + 1)

    def new_match(self, settings):
        """A new match with these settings (the menu), the first seat dealing."""
        self._new_match(settings, 0)

    def restart_game(self):
        """This game again, in the same match: its entries are dropped."""
        self.match.restart_game()
        self.show_open = False

    def _new_match(self, settings, dealer):
        self.show_open = False
        self.match = self._match_for(settings, dealer)
        self.settings = settings
        self.match_no += 1

    # --- the loop ------------------------------------------------------------
    def step(self):
        """One pass: read the buttons, run timers, serve the link, draw."""
        clock = self.clock
        now = clock.ticks_ms()
        ev = self.keypad.poll(now, self._diff)
        if ev:
            self.handle(self.names[ev >> 3], ev & 7, now)
        if self.pending and not self.held and clock.ticks_diff(now, self.pending_at) >= COMMIT_MS:
            self.commit(now)
        if self.mode in (SKUNK_VIEW, MATCH_VIEW) and clock.ticks_diff(now, self.mode_until) >= 0:
            self.mode = PLAY
            self.version += 1
        if self.error and clock.ticks_diff(now, self.error_until) >= 0:
            self.error = 0
            self.version += 1
        if self.link is not None:
            self.link.poll()
        self.draw(now)

    def handle(self, name, g, now):
        """One gesture of one button."""
        if self.mode == MENU:
            from cribapp import menu

            menu.press(self, name, g, now)
        elif name in ("P1", "P2", "P3"):
            if g == gesture.PRESS or g == gesture.REPEAT:
                if self.mode != PLAY:
                    self.mode = PLAY
                self.add_point(int(name[1]) - 1, now)
        elif name == "UNDO":
            if g == gesture.TAP:
                self.undo(now)
            elif g == gesture.LONG:
                self.redo(now)
        elif name == "SKUNK":
            if g == gesture.TAP or g == gesture.LONG:
                self.mode = SKUNK_VIEW if g == gesture.TAP else MATCH_VIEW
                self.mode_until = self.clock.ticks_add(now, VIEW_MS)
        elif name == "OK":
            if g == gesture.TAP:
                self.ok(now)
            elif g == gesture.LONG:
                self.commit(now)
                self._open_menu()
        self.version += 1

    # --- commands --------------------------------------------------------------
    def add_point(self, side, now):
        g = self.match.game
        if side >= g.sides or g.over() or (self.held and side != self.pending_side):
            self._flash(ERR_REFUSED, now, ERROR_MS)
            return
        if self.pending and self.pending_side != side:
            self.commit(now)
            if self.pending:  # refused: it waits for OK or UNDO
                return
        if self.pending >= (self.pq.MAX_ENTRY if self.pq and self.piquet() else MAX_ENTRY):
            self._refuse(now)  # no single cribbage entry passes 29
            return
        self.pending += 1
        self.pending_side = side
        self.pending_at = now

    def _refuse(self, now):
        """A refused entry: the error flash, and the pending points wait,
        blinking, for the player: OK counts them (if they can count), UNDO
        drops them; the idle timer leaves them alone."""
        self._flash(ERR_REFUSED, now, ERROR_MS)
        self.held = self.pending > 0

    def _drop_pending(self):
        self.pending = 0
        self.pending_side = -1
        self.held = False

    def commit(self, now):
        if not self.pending:
            return
        points, side = self.pending, self.pending_side
        g = self.match.game
        seat, kind = side, POINTS
        if self.counting():
            seat, kind = side, PEGGING
            if self.showing():
                from cribapp.showcount import next_entry

                entry = next_entry(g, side)
                if entry is None:  # this track has shown everything it had this deal
                    self._refuse(now)
                    return
                seat, kind = entry
        try:
            event = g.add(seat, points, kind, now)
        except ValueError:  # a show no hand makes (19, 25, 26, 27), a game already over
            self._refuse(now)
            return
        self._drop_pending()
        self.save()
        self.tell("add", event)

    def counting(self):
        """Entries carry their kind: pegging, then the show (not for piquet)."""
        return self.count_show and not self.piquet()

    def showing(self):
        """This deal's pegging is over: entries are hands and the crib."""
        if not self.counting():
            return False
        from cribapp.showcount import shown  # loaded by boards that count the show

        return self.show_open or shown(self.match.game)[1]

    def showing_hands(self):
        """Hands or the crib were entered in this deal."""
        from cribapp.showcount import shown

        return shown(self.match.game)[1]

    def undo(self, now):
        if self.pending:
            self._drop_pending()
        elif self.show_open and not self.showing_hands():
            self.show_open = False  # the OK that ended the pegging, taken back
            self.save()
        elif self.match.game.undo():
            self.save()
            self.tell("undo", None)
        else:
            self._flash(ERR_REFUSED, now, ERROR_MS)

    def redo(self, now):
        self.commit(now)
        if self.match.game.redo():
            self.save()
            self.tell("redo", None)
        else:
            self._flash(ERR_REFUSED, now, ERROR_MS)

    def ok(self, now):
        if self.pending:
            self.commit(now)
        elif self.match.game.over():
            self.close_game(now)
        elif self.counting() and not self.showing():
            self.show_open = True  # the pegging is over: the show is next
            self.save()
            self.tell("show", None)
        else:
            self.show_open = False
            self.match.game.pass_deal(now)
            self.save()
            self.tell("deal", None)

    def close_game(self, now):
        """The win was seen and confirmed: log the game, then go on to the
        next game, or to a new match once the match is over."""
        text = json.dumps(self.game_record(now))
        if self.store.append(self._key(), text) < 0:
            self._flash(ERR_FULL, now, BOOT_ERROR_MS)
            return
        self._advance()
        self.save()
        self.tell("next", None)

    def _advance(self):
        self.show_open = False
        if self.match.over():
            self._new_match(self.settings, self.match.next_dealer())
        else:
            self.match.next_game()
            self.match.forget_closed()

    def game_record(self, now):
        """The record of the current (finished) game, as synced to the host."""
        m = self.match
        index = len(m.closed)
        rec = record.game_record(m, index)
        rec["match"] = self.match_no
        rec["game_no"] = index + 1
        rec["board"] = self.board_id
        rec["boot"] = self.boot
        rec["ticks"] = now
        rec["wall"] = list(self.wall) if self.wall else None
        rec["firmware"] = FIRMWARE_VERSION
        rec["names"] = self.names_for(len(rec["scores"]))
        return rec

    def names_for(self, tracks):
        return names_for(self.player_names, tracks)

    # --- what the link may ask and do (cribapp.link.Link) ----------------------
    def hello_fields(self):
        """(board id, boot, ticks now, where ticks wrap, last record, last acknowledged)."""
        clock = self.clock
        return (self.board_id, self.boot, clock.ticks_ms(), getattr(clock, "TICKS_PERIOD", TICKS_PERIOD),
                self.store.last_seq, self.acked)

    def records_since(self, seq, limit):
        return self.store.since(seq, limit)

    def last_seq(self):
        return self.store.last_seq

    def acknowledge(self, seq):
        """A host stored every record up to seq; the highest acknowledged."""
        if seq > self.store.last_seq:
            raise ValueError("no record %d yet (last is %d)" % (seq, self.store.last_seq))
        if seq > self.acked:
            self.acked = seq
            self.save()
        return self.acked

    def set_wall_time(self, unix):
        """The host's clock, paired with this board's ticks (records carry it)."""
        self.wall = (unix, self.clock.ticks_ms())

    def live_state(self):
        return self.state()

    def crashes(self):
        """The crash log: [(boot, uptime_ms, traceback text)], oldest first."""
        from cribapp import crashlog  # loaded when a host asks

        return crashlog.entries(self.store.files)

    def clear_crashes(self, n):
        from cribapp import crashlog

        crashlog.clear(self.store.files, n)

    def set_player_names(self, names):
        """Names for the tracks from the host, kept through power cuts and
        new matches until changed; ValueError (nothing changed) if any is bad."""
        check_names(names, self.match.game.sides)
        self.player_names = names
        self.save()

    def tell(self, what, event):
        """Tell a listening host what changed (a live event)."""
        if self.link is not None and self.link.listening():
            g = self.match.game
            self.link.event({"what": what, "event": list(event) if event else None, "scores": g.scores(),
                             "dealer": g.dealer(), "winner": g.winner(), "game_no": len(self.match.closed) + 1})

    def _flash(self, code, now, ms):
        self.error = code
        self.error_until = self.clock.ticks_add(now, ms)
        self.version += 1

    # --- the menu (cribapp.menu, loaded when it is first opened) ------------------
    def _open_menu(self):
        from cribapp import menu

        menu.open_menu(self)

    # --- drawing -------------------------------------------------------------------
    def draw(self, now):
        phase = (now // BLINK_MS) & 1
        if self._drawn == self.version and (self._drawn_phase == phase or not self._blinking()):
            return False
        if self._drawn != self.version:
            # Standings and the show's order allocate: once per change, not per blink.
            self._tally = tally(self.match)
            self._show = self.showing()
        self._drawn = self.version
        self._drawn_phase = phase
        r = self.renderer
        r.begin()
        if self.mode == MENU:
            from cribapp import menu

            menu.draw(self, r)
        elif self.mode == MATCH_VIEW:
            self._draw_match(r)
        else:
            self._draw_board(r, phase)
            if self.mode == SKUNK_VIEW:
                self._draw_skunk(r)
        if self.error and phase:
            r.points(0, self.error, rc.ERROR)
        return r.finish()

    def _blinking(self):
        g = self.match.game
        return self.pending or self.error or g.over()

    def _draw_board(self, r, phase):
        if self.piquet():
            draw_piquet(r, self.match.game, phase, self.pq)
        else:
            draw_board(r, self.match, self._tally, phase, self.pending, self.pending_side, self._show)

    def _draw_skunk(self, r):
        draw_skunk(r, self.match.game, self.pq if self.piquet() else None)

    def _draw_match(self, r):
        m = self.match
        tally = self._tally
        for t in range(m.sides):
            r.span(t, 1, min(tally[t], 120), rc.FRONT + t)
            r.hole(t, m.need, rc.MARK)
            if m.scheme in SCHEME_ORDER:
                r.points(t, SCHEME_ORDER.index(m.scheme) + 1, rc.MENU)
