# Storage that survives a power cut at any instant. The live state is one
# sealed line, written to a temporary file and renamed over the old one.
# Finished games are appended to a log, one sealed line each with a sequence
# number. A log begins with a line numbered 0 that names it (made at the
# power-up that finds no log: cribapp.recovery), so a host tells a new log
# (a wiped flash, a replaced board: numbering from 1 again) from the old
# one's records sent again. At boot
# a torn state is set aside and a torn last log line dropped
# (cribapp.recovery). The board's files are behind a small interface
# (FlashFiles), so tests can swap in a flash that loses power at any
# instant. What the state holds (the session and the board's own fields,
# BoardFields) is written here too, and cribapp.restore reads it back.
# (One module, not two: every module a board imports at power-up costs it
# LittleFS look-ups, about 10 ms on a Pico.)
import json
import os

from cribcore.seal import seal, unseal

STATE = "state.json"
STATE_TMP = "state.tmp"
STATE_BAD = "state.bad"
LOG = "games.log"
LOG_TMP = "games.tmp"
# What a host gives the board once (CONF, cribapp.hostapi): the club's WiFi
# and the club's server. A board with both reports by itself (cribclub).
WIFI = "wifi.json"
CLUB = "club.json"

# Problems found at boot or while running, shown on the board.
STATE_CORRUPT = "state"
LOG_TORN = "log"
FULL = "full"


# The board's saved state: one small JSON object (finished games are in the
# log) made of the session and the board's own fields. cribapp.restore
# reads it back at power-up; the session never knows it is saved.
STATE_VERSION = 1


class BoardFields:
    """The board's own saved fields, beside the session."""

    def __init__(self, board_id, brightness):
        self.id = board_id
        self.boot = 0  # power-ups so far, this one included
        self.brightness = brightness
        self.acked = 0  # the highest record a host said it stored
        # ms from this boot's start to its last save, None once the loop was
        # left on purpose (Ctrl-C). From power-up to the first save: the last
        # boot's, which tells a hang from a stop (cribapp.crashlog.after_hang).
        self.up = None
        self.wall = None  # (unix seconds, ticks) from a host, if one told us (not saved)


def state(session, board, last_seq):
    """The state as saved (cribapp.restore reads it back). last_seq, the
    log's last record, is kept here too, so that numbering goes on from it
    even if the log is cleared: a host never sees a number twice."""
    g = session.match.game
    return {
        "v": STATE_VERSION,
        "board": board.id,
        "boot": board.boot,
        "match_no": session.match_no,
        "settings": session.settings,
        "closed": [list(r) for r in session.match.closed],
        "dealer": g.first_dealer,
        "events": [list(e) for e in g.events],
        "cursor": g.cursor,
        "brightness": board.brightness,
        "acked": board.acked,
        "seq": last_seq,
        "names": session.names,
        "count_show": session.count_show,
        "show_open": session.show_open,
        "up": board.up,
    }


class FlashFiles:
    def __init__(self, root=""):
        self.root = root

    def path(self, name):
        return self.root + "/" + name if self.root else name

    def open(self, name, mode):
        return open(self.path(name), mode)

    def rename(self, old, new):
        os.rename(self.path(old), self.path(new))

    def remove(self, name):
        try:
            os.remove(self.path(name))
        except OSError:
            pass

    def size(self, name):
        """Bytes in the file, or -1 if there is none."""
        try:
            return os.stat(self.path(name))[6]
        except OSError:
            return -1


def replace(files, tmp, name):
    """Rename tmp over name. FAT (CircuitPython, ESP32 ports) will not
    rename over a file: there the old one goes first, and a cut between the
    two steps leaves a whole tmp, which its reader takes up."""
    try:
        files.rename(tmp, name)
    except OSError:
        files.remove(name)
        files.rename(tmp, name)


class Store:
    def __init__(self, files):
        self.files = files
        self.problems = []
        self.last_seq = 0
        self.last_key = None  # (match, game) of the last record logged
        self.log_id = None  # the log's id (its first line), None before there is a log (or an older one's)
        # Where the last listing stopped: (seq, byte offset of the next line).
        # A sync asks for the records after the ones it just got, so it can
        # go on from there instead of reading the log from the start.
        self.resume = (0, 0)

    def write(self, name, mode, data):
        """Write data to a file, flushed."""
        f = self.files.open(name, mode)
        try:
            f.write(data)
            f.flush()
        finally:
            f.close()

    def replace_file(self, tmp, name):
        replace(self.files, tmp, name)  # a cut between FAT's two steps leaves a whole tmp: load() takes it up

    def note(self, problem):
        """A problem the board shows (STATE_CORRUPT, LOG_TORN, FULL), once."""
        if problem not in self.problems:
            self.problems.append(problem)

    # --- live state ------------------------------------------------------
    def load(self):
        """The saved state (a dict), or None on a board with none. Also checks
        the log, so last_seq and last_key are right before anything is added
        (cribapp.recovery: loaded at power-up, then forgotten)."""
        from cribapp.recovery import load

        return load(self)

    def save(self, state):
        """Replace the state atomically; False (and the old state kept) if the
        flash is full."""
        data = seal(json.dumps(state))
        try:
            self.write(STATE_TMP, "wb", data)
            self.replace_file(STATE_TMP, STATE)
        except OSError:
            if self.files.size(STATE) >= 0:
                self.files.remove(STATE_TMP)  # the old state stands
            # else the old state went first (FAT) and the rename failed: the
            # whole new one waits in STATE_TMP, where load() finds it
            self.note(FULL)
            return False
        if FULL in self.problems:
            self.problems.remove(FULL)
        return True

    # --- the log of finished games ----------------------------------------
    def append(self, key, record_json):
        """Log a finished game once: a second call with the same key (after a
        power cut between logging and saving the state) logs nothing. Returns
        the record's sequence number, or -1 if the flash is full."""
        if key == self.last_key:
            return self.last_seq
        seq = self.last_seq + 1
        line = seal("%d %s" % (seq, record_json))
        try:
            self.write(LOG, "ab", line)
        except OSError:
            self.note(FULL)
            from cribapp.recovery import check_log

            check_log(self)  # drop what a failed write may have left
            return -1
        self.last_seq = seq
        self.last_key = key
        return seq

    def since(self, seq, limit):
        """Up to `limit` records after sequence number seq: [(seq, json), ...].
        Lines that fail their check are skipped, never sent."""
        out = []
        if self.files.size(LOG) <= 0:
            return out
        start_seq, offset = self.resume
        if start_seq > seq:
            offset = 0  # asked for older records: read from the start
        f = self.files.open(LOG, "rb")
        try:
            f.seek(offset)
            while len(out) < limit:
                line = f.readline()
                if not line:
                    break
                offset += len(line)
                space = line.find(b" ")
                try:
                    n = int(line[:space])
                except ValueError:
                    continue
                if n <= seq:
                    continue  # older than asked for: no need to check it
                text = unseal(line)
                if text is None:
                    continue
                out.append((n, text[space + 1 :]))
        finally:
            f.close()
        if out:
            self.resume = (out[-1][0], offset)
        return out
