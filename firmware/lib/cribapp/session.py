# A match being played at the board: the points being entered on a track's
# button, undo and redo, counting the show, a game's end and the next game.
# Rules only: no LEDs, no flash, no link, no clock of its own. Every command
# returns what it came to (cribapp.codes) and the loop flashes, saves and
# tells by that. Cribbage and piquet differ in their core classes (the entry
# limit, whether a deal has a show, the end of a game), not here.
from cribapp.codes import ADDED, DEAL, ENTRY, NEXT, NOTHING, REDONE, REFUSED, SHOW, UNDONE, WON
from cribapp.compat import forget
from cribcore.game import PEGGING, POINTS
from cribcore.match import PIQUET, Match

# A game's record must fit one reply on the link (16 KB): at most this many
# entries and passed deals (a real game has about a hundred), each at most
# about 40 bytes of JSON, and room for the rest of the record.
MAX_EVENTS = 360

DEFAULT_SETTINGS = {"game": "cribbage", "players": 2, "target": 121, "scheme": "acc", "best_of": 3, "first_to": None}


def match_for(settings, dealer):
    """A new match with these settings, the first game dealt by `dealer`
    (ValueError if they make none)."""
    if settings.get("game") == PIQUET:
        from cribcore import partie  # only boards that play piquet load it

        return partie.PiquetMatch(dealer)
    return Match(
        settings["players"], settings["target"], settings["scheme"], settings["best_of"], settings["first_to"], dealer
    )


def first_session(last_match_no=0):
    """A board's first match (nothing saved): the default settings,
    numbered on from the last match in the log, so numbers never repeat."""
    settings = dict(DEFAULT_SETTINGS)
    return Session(settings, match_for(settings, 0), last_match_no + 1)


class Session:
    def __init__(self, settings, match, match_no):
        self.settings = settings
        self.match = match
        self.match_no = match_no
        self.names = None  # a name a track, from the host; None: never given
        self.count_show = False  # the setting: pegging, then each hand and the crib, by kind
        self.show_open = False  # OK ended this deal's pegging: entries are the show's
        self.pending = 0  # points being entered, not yet counted
        self.side = -1  # ... on this track
        self.held = False  # ... refused: they wait for OK (count) or UNDO (drop)
        self.last = None  # the event the last ADDED added

    # --- entering points ------------------------------------------------------
    def press(self, side, now):
        """One more point on track `side`'s button (a press or a repeat)."""
        g = self.match.game
        if side >= g.sides or g.over() or (self.held and side != self.side):
            return REFUSED
        out = ENTRY
        if self.pending and self.side != side:
            out = self.commit(now)  # the other track's points count first
            if out == REFUSED:
                return out
        if self.pending >= g.MAX_ENTRY:
            return self._refuse()  # no single entry passes the limit (29 in cribbage)
        self.pending += 1
        self.side = side
        return out

    def tens(self):
        """Ten more points on the track being entered (games whose entries run
        to the hundreds: piquet), so a big deal is a few taps, not a hundred."""
        g = self.match.game
        if not g.TENS or not self.pending or self.held:
            return REFUSED
        if self.pending + 10 > g.MAX_ENTRY:
            return self._refuse()
        self.pending += 10
        return ENTRY

    def waiting(self):
        """Points are pending and may be counted when the buttons go quiet
        (not refused ones: those wait for the player)."""
        return self.pending > 0 and not self.held

    def commit(self, now):
        """Count the pending points: ADDED, REFUSED (they are held), or NOTHING."""
        if not self.pending:
            return NOTHING
        g = self.match.game
        seat, kind = self.side, POINTS
        if self.counting():
            kind = PEGGING
            if self.showing():
                from cribapp.showorder import next_entry  # loaded by boards that count the show

                entry = next_entry(g, self.side)
                if entry is None:  # this track has shown everything it had this deal
                    return self._refuse()
                seat, kind = entry
        if g.cursor >= MAX_EVENTS:
            return self._refuse()  # a record too long to send: this game takes no more
        try:
            self.last = g.add(seat, self.pending, kind, now)
        except ValueError:  # a show no hand makes (19, 25, 26, 27)
            return self._refuse()
        self._drop()
        return ADDED

    def _refuse(self):
        self.held = self.pending > 0
        return REFUSED

    def _drop(self):
        self.pending = 0
        self.side = -1
        self.held = False

    # --- the show ---------------------------------------------------------------
    def counting(self):
        """Entries carry their kind: pegging, then the show (games with a show)."""
        return self.count_show and self.match.game.SHOWS

    def showing(self):
        """This deal's pegging is over: entries are hands and the crib."""
        if not self.counting():
            return False
        return self.show_open or self._hands_shown()

    def _hands_shown(self):
        from cribapp.showorder import shown

        return shown(self.match.game)[1]

    # --- undo, redo, OK -----------------------------------------------------------
    def undo(self):
        if self.pending:
            self._drop()
            return ENTRY
        if self.show_open and not self._hands_shown():
            self.show_open = False  # the OK that ended the pegging, taken back
            return UNDONE
        return UNDONE if self.match.game.undo() else REFUSED

    def redo(self, now):
        if self.pending:
            return self.commit(now)  # counting clears what could be redone anyway
        return REDONE if self.match.game.redo() else REFUSED

    def ok(self, now):
        if self.pending:
            return self.commit(now)
        g = self.match.game
        if g.over():
            return WON
        if self.counting() and not self.showing():
            self.show_open = True
            return SHOW
        if g.cursor >= MAX_EVENTS:
            return REFUSED
        self.show_open = False
        g.pass_deal(now)
        return DEAL

    # --- games and matches --------------------------------------------------------
    def key(self):
        """(match number, game number) of the game being played."""
        return (self.match_no, len(self.match.closed) + 1)

    def record(self):
        """The finished game's record, as far as the rules go (the loop adds
        the board's own fields)."""
        from cribcore import record  # loaded when a game ends, then forgotten

        m = self.match
        index = len(m.closed)
        rec = record.game_record(m, index)
        rec["match"] = self.match_no
        rec["game_no"] = index + 1
        rec["names"] = self.names_for(len(rec["scores"]))
        forget("cribcore.record")
        return rec

    def advance(self):
        """The won game was logged: the next game, or a new match once the
        match is over (the loser of the last game deals first)."""
        self._drop()
        self.show_open = False
        m = self.match
        if m.over():
            self.new_match(self.settings, m.next_dealer())
        else:
            m.next_game()
            m.forget_closed()
        return NEXT

    def new_match(self, settings, dealer=0):
        """A new match with these settings (ValueError if they make none)."""
        self.match = match_for(settings, dealer)
        self.settings = settings
        self.match_no += 1
        self._drop()
        self.show_open = False

    def restart_game(self):
        """This game again, in the same match: its entries are dropped."""
        self.match.restart_game()
        self._drop()
        self.show_open = False

    # --- names -----------------------------------------------------------------
    def set_names(self, names):
        """A name for each track; ValueError (nothing changed) if any is bad."""
        from cribcore.names import check_names

        try:
            check_names(names, self.match.game.sides)
        finally:
            forget("cribcore.names")
        self.names = names

    def names_for(self, tracks):
        from cribcore.names import names_for

        names = names_for(self.names, tracks)
        forget("cribcore.names")
        return names
