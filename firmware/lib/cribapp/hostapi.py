# What a host may ask of the board and do to it over the serial link: the
# narrow interface cribapp.link talks to, over the app's parts. Loaded when
# a host first speaks (cribapp.linkwait): a board played without a computer
# never holds it.
import json

from cribapp.compat import const, forget
from cribapp.store import CLUB, WIFI, replace, state
from cribcore import TICKS_PERIOD, CoreError

# The codes of cribcore.messages.
_LENGTH = const(1301)
_USAGE = const(1302)
_CLUB = const(1303)
_NO_RECORD = const(1304)
_PASSWORD = const(1305)
_SSID = const(1306)
_MOST_GAMES = const(100)  # a match's length is below it (cribcore.match takes 1 to 99)


class HostApi:
    def __init__(self, app):
        self.app = app

    def hello_fields(self):
        """(board id, boot, ticks now, where ticks wrap, last record, last acknowledged, the log's id or
        None)."""
        app = self.app
        clock = app.clock
        return (
            app.board.id,
            app.board.boot,
            clock.ticks_ms(),
            getattr(clock, "TICKS_PERIOD", TICKS_PERIOD),
            app.store.last_seq,
            app.board.acked,
            app.store.log_id,
        )

    def acked(self):
        """The last record a host acknowledged (USB sync and WiFi move the same cursor)."""
        return self.app.board.acked

    def changes(self):
        """A number that changes whenever what the board shows does (its live state may have)."""
        return self.app.version

    def records_since(self, seq, limit):
        return self.app.store.since(seq, limit)

    def last_seq(self):
        return self.app.store.last_seq

    def log_id(self):
        """The id of the log the records are numbered in (None before its first game, or an older log)."""
        return self.app.store.log_id

    def acknowledge(self, seq):
        """A host stored every record up to seq; the highest acknowledged."""
        app = self.app
        last = app.store.last_seq
        if seq > last:
            raise CoreError(_NO_RECORD, (seq, last))
        if seq > app.board.acked:
            app.board.acked = seq
            app.save()
        return app.board.acked

    def rewind(self, seq):
        """The club's server lacks what it acknowledged after seq (restored from an older backup): the
        sent-cursor back to seq, kept, so the sender sends the rest again (a power cut meanwhile too)."""
        app = self.app
        if seq < app.board.acked:
            app.board.acked = seq
            app.save()

    def resend(self):
        """Every game in the log is to go to the club's server again (a new one: pairing with it moved the
        board): the sent-cursor back to 0, and the sender started again from it. USB sync is untouched (it
        asks from what its database holds). The cursor, now 0."""
        app = self.app
        app.board.acked = 0
        app.save()
        self._restart_sender()
        return 0

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

    def seat(self, names, best_of=None):
        """The players the club puts at this board (its answer), track 1 first: who deals first; best_of,
        a tournament's playoff match's length. A new pair (or length) starts a new match that track 1
        deals, as the draw says, once nothing is entered in the game on the board: a game under way is its
        players' and is never renamed into another pair's (the host reads back what the board kept; the
        club says it again until the game is over or cleared). What this board cannot take is left (the
        answer is the club's, not a user's)."""
        app = self.app
        s = app.session
        settings = s.settings
        if type(best_of) is int and 0 < best_of < _MOST_GAMES and best_of % 2 and best_of != settings["best_of"]:
            settings = dict(settings, best_of=best_of, first_to=None)
        if names == s.names and settings is s.settings:
            return
        if s.match.game.cursor:
            return  # (between games, what was won is logged already: nothing of the old pair's is lost)
        try:
            s.set_names(names)
        except ValueError:
            return
        from cribapp.boardview import view_for  # (loaded already: the app draws with it)

        s.new_match(settings, 0)
        app._view = view_for(s.match)
        app.save()

    def keep_config(self, kind, data):
        """The club's WiFi or server, kept on the board (ValueError if wrong)."""
        keep_conf(self.app.store.files, kind, data)
        self._restart_sender()

    def _restart_sender(self):
        app = self.app
        if app.club_start is not None:  # a WiFi board: report with the new settings (or cursor) from now on
            if app.club is not None:
                app.club.close()
            app.club = None
            app.club_start(app)


# What a host is told once and the board keeps in a file of its own (CONF):
# the club's WiFi (wifi.json: ssid, password) and the club's server it
# reports to (club.json: server, key). Never sent back over the link, never
# in the saved state or a record. Here, not a module of its own: one more
# file in lib/cribapp costs every power-up's imports about 8 ms of LittleFS
# look-ups on a Pico (measured), and this is needed only with a host.

CONF_FILES = {"wifi": WIFI, "club": CLUB}  # the club's WiFi, the club's server


def _text(data, name, low, high):
    v = data.get(name)
    if not isinstance(v, str) or not low <= len(v) <= high:
        raise CoreError(_LENGTH, (name, low, high))
    return v


def _ssid(data):
    """A network's name: 1 to 32 bytes as its beacon carries it (UTF-8), no control character."""
    v = data.get("ssid")
    if not isinstance(v, str) or not 1 <= len(v.encode()) <= 32 or [c for c in v if c < " " or c == "\x7f"]:
        raise CoreError(_SSID, ())
    return v


def _password(data):
    """What WPA2 can take, else the board would never join and not say why: 8 to 63 printable ASCII
    characters (a passphrase), 64 hex digits (the key itself), or none (an open network)."""
    v = data.get("password")
    if isinstance(v, str) and (
        v == ""
        or (8 <= len(v) <= 63 and not [c for c in v if not " " <= c <= "~"])
        or (len(v) == 64 and not [c for c in v if c not in "0123456789abcdefABCDEF"])
    ):
        return v
    raise CoreError(_PASSWORD, ())


def conf_checked(kind, data):
    """The settings to keep, only the fields that kind has; ValueError says which is wrong."""
    if kind not in CONF_FILES or not isinstance(data, dict):
        raise CoreError(_USAGE, ())
    if kind == "wifi":
        return {"ssid": _ssid(data), "password": _password(data)}
    server = _text(data, "server", 8, 100)
    key = _text(data, "key", 32, 128)
    # http://A.B.C.D:PORT/ and nothing more. An IPv4 address, not a name: a board's DNS look-up would
    # stall its loop, and the server answers no names. (The host checks `pair --server` with this rule.)
    where = server[7:]
    host, _colon, port = where[:-1].partition(":")
    octets = host.split(".")
    if (
        not server.startswith("http://")
        or where.find("/") != len(where) - 1
        or len(octets) != 4
        or [o for o in octets if not o.isdigit() or int(o) > 255]
        or not port.isdigit()
        or not 0 < int(port) < 65536
        or [c for c in key if c not in "0123456789abcdef"]
    ):
        raise CoreError(_CLUB, ())
    return {"server": server, "key": key}


def keep_conf(files, kind, data):
    """Write kind's file whole (a temporary file renamed over it: a power cut leaves the old or the new)."""
    kept = json.dumps(conf_checked(kind, data))
    tmp = CONF_FILES[kind] + ".tmp"
    f = files.open(tmp, "wb")
    try:
        f.write(kept.encode())
    finally:
        f.close()
    replace(files, tmp, CONF_FILES[kind])
