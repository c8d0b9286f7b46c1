# What the store does at power-up, after a cut at any instant: a state that
# does not read back is set aside (or a whole state.tmp a cut left becomes
# the state), a torn last line of the log is dropped, and the log's last
# record and its id found; a board with no log (a new or wiped flash, a log
# deleted by hand) starts one, its first line its id. Loaded at power-up
# (and after a failed append), then forgotten: the code is heap on a board.
import json
import os
from binascii import crc32, hexlify

from cribapp.compat import const
from cribapp.store import FULL, LOG, LOG_TMP, LOG_TORN, STATE, STATE_BAD, STATE_CORRUPT, STATE_TMP
from cribcore.seal import seal, unseal

_CHUNK = const(512)
_HEAD_MAX = const(64)  # the log's first line, with its id, is 42 bytes
LOG_HEAD = '0 {"log": "%s"}'  # that line (sealed): numbered 0, so no listing ever sends it
# The longest line this firmware logs: a record that fits one link reply (cribcore.serialwire.MAX_REPLY,
# not imported: that module waits for a host), sealed. tests/host/test_serialwire.py holds them together.
_MAX_LINE = const(16384 + 64)


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
        _new_log(store)
        return
    f = store.files.open(LOG, "rb")
    try:
        end = size  # the log's whole, sealed lines end here
        text = None
        long_seq = -1  # the number of a sealed line too long to read whole
        while end > 0:
            start = _line_start(f, end)
            if end - start <= _MAX_LINE:
                f.seek(start)
                line = f.read(end - start)
                text = unseal(line) if line.endswith(b"\n") else None
                if text is not None:
                    break
            else:  # longer than any line this firmware writes (an older one's): checked as it is read
                long_seq = _long_line_seq(f, start, end)
                if long_seq >= 0:
                    break
            end = start  # a torn or corrupt last line: drop it
        f.seek(size - 1)
        ends_line = f.read(1) == b"\n"
        store.log_id = _log_id(f) if end > 0 else None
    finally:
        f.close()
    if end < size:
        store.note(LOG_TORN)
        try:
            _rewrite_log(store, end)
        except OSError:
            # No room to copy the good part (a full flash): end the torn
            # fragment with a newline instead. It stays in the file as a
            # line that fails its check, which listing skips, and the next
            # record starts on a line of its own.
            store.note(FULL)
            store.files.remove(LOG_TMP)
            if not ends_line:
                try:
                    store.write(LOG, "ab", b"\n")
                except OSError:
                    pass
    if text is not None:
        _remember(store, text)
    elif long_seq >= 0:
        store.last_seq = long_seq
        store.last_key = None
    if end == 0:
        _new_log(store)


def _new_log(store):
    """Start a log with its id: 64 random bits, in hex (os.urandom on the boards' ports; random's where a
    port has none, as MicroPython's WebAssembly port). A full flash keeps none: the games go on, unnamed."""
    try:
        made = hexlify(os.urandom(8)).decode()
    except AttributeError:
        import random

        made = "%08x%08x" % (random.getrandbits(32), random.getrandbits(32))
    try:
        store.write(LOG, "ab", seal(LOG_HEAD % made))
    except OSError:
        store.note(FULL)
        store.files.remove(LOG)
        made = None
    store.log_id = made


def _long_line_seq(f, start, end):
    """The sequence number of the sealed line f[start:end], checked a chunk
    at a time (its CRC-32, as seal() made it); -1 if it does not check."""
    body = end - start - 11  # " ~" + 8 hex digits + newline
    f.seek(end - 11)
    tail = f.read(11)
    if body <= 0 or tail[:2] != b" ~" or tail[-1:] != b"\n":
        return -1
    f.seek(start)
    head = f.read(12)
    space = head.find(b" ")
    try:
        seq = int(head[:space]) if space > 0 else -1
    except ValueError:
        return -1
    f.seek(start)
    crc = 0
    left = body
    while left > 0:
        block = f.read(_CHUNK if left > _CHUNK else left)
        if not block:
            return -1
        crc = crc32(block, crc)
        left -= len(block)
    if ("%08x" % (crc & 0xFFFFFFFF)).encode() != tail[2:10]:
        return -1
    return seq


def _log_id(f):
    """The id a log's first line gives it (store.LOG_HEAD), or None (a log older firmware made)."""
    f.seek(0)
    head = f.read(_HEAD_MAX)
    text = unseal(head[: head.find(b"\n") + 1])
    if text is None or not text.startswith("0 "):
        return None
    try:
        made = json.loads(text[2:]).get("log")
    except (ValueError, AttributeError):
        return None
    return made if isinstance(made, str) else None


def _line_start(f, end):
    """Where the line ending at byte `end` of file f begins: read backwards
    a chunk at a time, so a line of any length costs no more memory."""
    pos = end - 1  # the line's own newline (or the last byte of a torn one)
    while pos > 0:
        n = _CHUNK if pos > _CHUNK else pos
        f.seek(pos - n)
        block = f.read(n)
        i = block.rfind(b"\n")
        if i >= 0:
            return pos - n + i + 1
        pos -= n
    return 0


def _remember(store, text):
    seq, _, body = text.partition(" ")
    if seq == "0":
        return  # the log's id alone, no record: the numbering stands where the state left it
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
