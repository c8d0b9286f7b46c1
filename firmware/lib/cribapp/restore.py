# What a board does with its saved state at power-up: the session and the
# board's fields read back (cribapp.store wrote them), or a new match if
# there is none or it is not one this firmware wrote; and a game's end a
# power cut broke off, finished. Loaded once a power-up, then forgotten;
# the host's scoreboard reads a board's state through session_of too.
from cribapp.session import Session, first_session, match_for
from cribapp.store import STATE_CORRUPT, STATE_VERSION


def restore_match(state):
    """The match of a saved state; ValueError, KeyError, TypeError or
    IndexError if the state is not one this firmware wrote."""
    if state.get("v") != STATE_VERSION:
        raise ValueError("state version %r" % (state.get("v"),))
    m = match_for(state["settings"], state["dealer"])
    for result in state["closed"]:
        m.closed.append(tuple(result))
    m.game.load(state["events"], state["cursor"])
    return m


def check_settings(settings, tracks):
    """ValueError if these settings make no match on a board of `tracks`."""
    if settings["players"] == 3 and tracks < 3:
        raise ValueError("3 players need a 3-track board")


def session_of(saved):
    """The session a saved state holds (the board restores it at power-up;
    the host's scoreboard reads a board's state through it); ValueError,
    KeyError, TypeError or IndexError if this firmware did not write it."""
    session = Session(saved["settings"], restore_match(saved), saved["match_no"])
    names = saved.get("names")
    if names is not None:
        session.set_names(names)
    session.count_show = saved.get("count_show", False) is True
    session.show_open = saved.get("show_open", False) is True
    return session


def restore_session(saved, tracks, board):
    """session_of(saved) on a board of `tracks`, and the board's own fields
    from it (nothing is changed if it raises)."""
    check_settings(saved["settings"], tracks)
    session = session_of(saved)
    boot = saved["boot"]
    brightness = saved.get("brightness", board.brightness)
    acked = saved.get("acked", 0)
    up = saved.get("up")
    for n in (boot, brightness, acked):
        if not isinstance(n, int) or n < 0:
            raise ValueError("not a count: %r" % (n,))
    if up is not None and not isinstance(up, int):  # below 0 after days on: the ticks wrapped (no harm)
        raise ValueError("not a time: %r" % (up,))
    if not 1 <= brightness <= 5:
        raise ValueError("brightness %r" % (brightness,))
    board.boot = boot
    board.brightness = brightness
    board.acked = acked
    board.up = up  # the last boot's: None if it stopped on purpose
    return session


def power_up(store, tracks, board):
    """The session a board starts with: the saved one, else a new match (a
    state this firmware cannot read is noted as STATE_CORRUPT in the store's
    problems). Counts the boot and finishes a game's end a power cut broke
    off; the caller saves."""
    saved = store.load()
    session = None
    if saved is not None:
        seq = saved.get("seq")
        if type(seq) is int and seq > store.last_seq:
            store.last_seq = seq  # the log was cleared (or lost): its numbers are not used again
        try:
            session = restore_session(saved, tracks, board)
        except (ValueError, KeyError, TypeError, IndexError):
            store.note(STATE_CORRUPT)
    if session is None:
        last = store.last_key
        session = first_session(last[0] if last and isinstance(last[0], int) else 0)
    board.boot += 1
    # A power cut after logging a finished game but before saving the next
    # one: finish that step now, so the game is never logged twice.
    if session.match.game.over() and store.last_key == session.key():
        session.advance()
    return session
