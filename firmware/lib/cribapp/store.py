# Storage that survives a power cut at any instant. The live state is one
# sealed line, written to a temporary file and renamed over the old one.
# Finished games are appended to a log, one sealed line each with a sequence
# number. At boot a torn state is set aside and a torn last log line dropped.
import json

from cribapp.flashfs import replace
from cribapp.seal import seal, unseal

STATE = "state.json"
STATE_TMP = "state.tmp"
STATE_BAD = "state.bad"
LOG = "games.log"
LOG_TMP = "games.tmp"
_TAIL = 32768  # bytes read from the log's end at boot: more than one record
_CHUNK = 512

# Problems found at boot or while running, shown on the board.
STATE_CORRUPT = "state"
LOG_TORN = "log"
FULL = "full"


class Store:
    def __init__(self, files):
        self.files = files
        self.problems = []
        self.last_seq = 0
        self.last_key = None  # (match, game) of the last record logged
        # Where the last listing stopped: (seq, byte offset of the next line).
        # A sync asks for the records after the ones it just got, so it can
        # go on from there instead of reading the log from the start.
        self._resume = (0, 0)

    def _write(self, name, mode, data):
        f = self.files.open(name, mode)
        try:
            f.write(data)
            f.flush()
        finally:
            f.close()

    def _replace(self, tmp, name):
        replace(self.files, tmp, name)  # a cut between FAT's two steps leaves a whole tmp: load() takes it up

    def note(self, problem):
        """A problem the board shows (STATE_CORRUPT, LOG_TORN, FULL), once."""
        if problem not in self.problems:
            self.problems.append(problem)

    # --- live state ------------------------------------------------------
    def load(self):
        """The saved state (a dict), or None on a board with none. Also checks
        the log, so last_seq and last_key are right before anything is added."""
        self._check_log()
        state = self._read_state(STATE)
        if state is None and self.files.size(STATE) >= 0:
            # A state that does not read back: keep it for a post-mortem.
            self.note(STATE_CORRUPT)
            self.files.remove(STATE_BAD)
            self.files.rename(STATE, STATE_BAD)
        if state is None:
            # A save cut between removing the old state and the rename (on
            # file systems whose rename cannot replace) leaves a whole tmp:
            # it becomes the state, so a second cut cannot lose it.
            state = self._read_state(STATE_TMP)
            if state is not None:
                try:
                    self.files.rename(STATE_TMP, STATE)
                except OSError:
                    pass  # kept where it is: the next boot takes it up again
                return state
        self.files.remove(STATE_TMP)
        return state

    def _read_state(self, name):
        if self.files.size(name) < 0:
            return None
        try:
            f = self.files.open(name, "rb")
            try:
                text = unseal(f.read())
            finally:
                f.close()
            if text is None:
                return None
            state = json.loads(text)
            return state if isinstance(state, dict) else None
        except (OSError, ValueError):
            return None

    def save(self, state):
        """Replace the state atomically; False (and the old state kept) if the
        flash is full."""
        data = seal(json.dumps(state))
        try:
            self._write(STATE_TMP, "wb", data)
            self._replace(STATE_TMP, STATE)
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
    def _check_log(self):
        size = self.files.size(LOG)
        if self.files.size(LOG_TMP) >= 0:
            if size < 0:
                # Cut between removing the log and renaming its whole copy (FAT).
                self.files.rename(LOG_TMP, LOG)
                size = self.files.size(LOG)
            else:
                self.files.remove(LOG_TMP)  # a copy cut off before it was complete
        if size <= 0:
            return
        start = size - _TAIL if size > _TAIL else 0
        f = self.files.open(LOG, "rb")
        try:
            f.seek(start)
            tail = f.read()
        finally:
            f.close()
        end = len(tail)
        good = end  # bytes of the tail that are whole, sealed lines
        text = None
        while end > 0:
            cut = tail.rfind(b"\n", 0, end - 1) + 1 if end > 1 else 0
            if cut == 0 and start > 0:
                break  # the tail starts mid-line: older lines are not read
            line = tail[cut:end]
            text = unseal(line) if line.endswith(b"\n") else None
            if text is not None:
                break
            good = cut  # a torn or corrupt last line: drop it
            end = cut
        if good < len(tail):
            self.note(LOG_TORN)
            try:
                self._rewrite_log(start + good)
            except OSError:
                # No room to copy the good part (a full flash): end the torn
                # fragment with a newline instead. It stays in the file as a
                # line that fails its check, which listing skips, and the next
                # record starts on a line of its own.
                self.note(FULL)
                self.files.remove(LOG_TMP)
                if not tail.endswith(b"\n"):
                    try:
                        self._write(LOG, "ab", b"\n")
                    except OSError:
                        pass
        if text is not None:
            self._remember(text)

    def _remember(self, text):
        seq, _, body = text.partition(" ")
        self.last_seq = int(seq)
        try:
            rec = json.loads(body)
            self.last_key = (rec.get("match"), rec.get("game_no"))
        except ValueError:
            self.last_key = None

    def _rewrite_log(self, keep):
        """Keep the first `keep` bytes of the log (dropping a torn tail)."""
        self._resume = (0, 0)
        if keep == 0:
            self.files.remove(LOG)
            return
        src = self.files.open(LOG, "rb")
        try:
            dst = self.files.open(LOG_TMP, "wb")
            try:
                left = keep
                while left > 0:
                    block = src.read(_CHUNK if left > _CHUNK else left)
                    if not block:
                        break
                    dst.write(block)
                    left -= len(block)
                dst.flush()
            finally:
                dst.close()
        finally:
            src.close()
        self._replace(LOG_TMP, LOG)

    def append(self, key, record_json):
        """Log a finished game once: a second call with the same key (after a
        power cut between logging and saving the state) logs nothing. Returns
        the record's sequence number, or -1 if the flash is full."""
        if key == self.last_key:
            return self.last_seq
        seq = self.last_seq + 1
        line = seal("%d %s" % (seq, record_json))
        try:
            self._write(LOG, "ab", line)
        except OSError:
            self.note(FULL)
            self._check_log()  # drop what a failed write may have left
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
        start_seq, offset = self._resume
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
                out.append((n, text[space + 1:]))
        finally:
            f.close()
        if out:
            self._resume = (out[-1][0], offset)
        return out
