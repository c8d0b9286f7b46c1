# What a host may ask of the board and do to it over the serial link: the
# narrow interface cribapp.link talks to, over the app's parts. Loaded when
# a host first speaks (cribapp.doorbell): a board played without a computer
# never holds it.
from cribapp.compat import TICKS_PERIOD, forget
from cribapp.persist import state


class HostFace:
    def __init__(self, app):
        self.app = app

    def hello_fields(self):
        """(board id, boot, ticks now, where ticks wrap, last record, last acknowledged)."""
        app = self.app
        clock = app.clock
        return (app.board.id, app.board.boot, clock.ticks_ms(), getattr(clock, "TICKS_PERIOD", TICKS_PERIOD),
                app.store.last_seq, app.board.acked)

    def records_since(self, seq, limit):
        return self.app.store.since(seq, limit)

    def last_seq(self):
        return self.app.store.last_seq

    def acknowledge(self, seq):
        """A host stored every record up to seq; the highest acknowledged."""
        app = self.app
        last = app.store.last_seq
        if seq > last:
            raise ValueError("no record %d yet (last is %d)" % (seq, last))
        if seq > app.board.acked:
            app.board.acked = seq
            app.save()
        return app.board.acked

    def set_wall_time(self, unix):
        """The host's clock, paired with this board's ticks (records carry it)."""
        self.app.board.wall = (unix, self.app.clock.ticks_ms())

    def live_state(self):
        return state(self.app.session, self.app.board, self.app.store.last_seq)

    def crashes(self):
        """The crash log: [(boot, uptime_ms, traceback text)], oldest first."""
        from cribapp import crashlog  # loaded when asked, then forgotten

        found = crashlog.entries(self.app.store.files)
        forget("cribapp.crashlog")
        return found

    def clear_crashes(self, n):
        from cribapp import crashlog

        crashlog.clear(self.app.store.files, n)
        forget("cribapp.crashlog")

    def set_player_names(self, names):
        """Names for the tracks, kept through power cuts and new matches
        until changed; ValueError (nothing changed) if any is bad."""
        self.app.session.set_names(names)
        self.app.save()

    def keep_config(self, kind, data):
        """The club's WiFi or server, kept on the board (ValueError if wrong)."""
        from cribapp import boardconf

        try:
            boardconf.keep(self.app.store.files, kind, data)
        finally:
            forget("cribapp.boardconf")
