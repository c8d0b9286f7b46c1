# What the store does at power-up, after a cut at any instant: a state that
# does not read back is set aside (or a whole state.tmp a cut left becomes
# the state), a torn last line of the log is dropped, and the log's last
# record found. Loaded at power-up (and after a failed append), then
# forgotten: the code is heap on a board.
import json

from cribapp.seal import unseal
from cribapp.store import FULL, LOG, LOG_TMP, LOG_TORN, STATE, STATE_BAD, STATE_CORRUPT, STATE_TMP

_TAIL = 32768  # bytes read from the log's end at boot: more than one record
_CHUNK = 512


def load(store):
    """Store.load(): the saved state, the log checked first."""
    check_log(store)
    state = _read_state(store, STATE)
    if state is None and store.files.size(STATE) >= 0:
        # A state that does not read back: keep it for a post-mortem.
        store.note(STATE_CORRUPT)
        store.files.remove(STATE_BAD)
        store.files.rename(STATE, STATE_BAD)
    if state is None:
        # A save cut between removing the old state and the rename (on
        # file systems whose rename cannot replace) leaves a whole tmp:
        # it becomes the state, so a second cut cannot lose it.
        state = _read_state(store, STATE_TMP)
        if state is not None:
            try:
                store.files.rename(STATE_TMP, STATE)
            except OSError:
                pass  # kept where it is: the next boot takes it up again
            return state
    store.files.remove(STATE_TMP)
    return state


def _read_state(store, name):
    if store.files.size(name) < 0:
        return None
    try:
        f = store.files.open(name, "rb")
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


def check_log(store):
    """Drop a torn or corrupt last line of the log (copying the good part
    aside and back) and learn the last record's sequence number and key."""
    size = store.files.size(LOG)
    if store.files.size(LOG_TMP) >= 0:
        if size < 0:
            # Cut between removing the log and renaming its whole copy (FAT).
            store.files.rename(LOG_TMP, LOG)
            size = store.files.size(LOG)
        else:
            store.files.remove(LOG_TMP)  # a copy cut off before it was complete
    if size <= 0:
        return
    start = size - _TAIL if size > _TAIL else 0
    f = store.files.open(LOG, "rb")
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
        store.note(LOG_TORN)
        try:
            _rewrite_log(store, start + good)
        except OSError:
            # No room to copy the good part (a full flash): end the torn
            # fragment with a newline instead. It stays in the file as a
            # line that fails its check, which listing skips, and the next
            # record starts on a line of its own.
            store.note(FULL)
            store.files.remove(LOG_TMP)
            if not tail.endswith(b"\n"):
                try:
                    store.write(LOG, "ab", b"\n")
                except OSError:
                    pass
    if text is not None:
        _remember(store, text)


def _remember(store, text):
    seq, _, body = text.partition(" ")
    store.last_seq = int(seq)
    try:
        rec = json.loads(body)
        store.last_key = (rec.get("match"), rec.get("game_no"))
    except ValueError:
        store.last_key = None


def _rewrite_log(store, keep):
    """Keep the first `keep` bytes of the log (dropping a torn tail)."""
    store.resume = (0, 0)
    if keep == 0:
        store.files.remove(LOG)
        return
    src = store.files.open(LOG, "rb")
    try:
        dst = store.files.open(LOG_TMP, "wb")
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
    store.replace_file(LOG_TMP, LOG)
