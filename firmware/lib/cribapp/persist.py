# The board's saved state (one small JSON object; finished games are in the
# log) and what a board does with it at power-up. Persist reads and restores
# a session; the session never knows it is saved.
from cribapp.matchstate import STATE_VERSION, restore
from cribapp.session import Session, first_session
from cribapp.store import STATE_CORRUPT


class Board:
    """The board's own saved fields, beside the session."""

    def __init__(self, board_id, brightness):
        self.id = board_id
        self.boot = 0  # power-ups so far, this one included
        self.brightness = brightness
        self.acked = 0  # the highest record a host said it stored


def state(session, board):
    """The state as saved (cribapp.matchstate reads its match back)."""
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
        "names": session.names,
        "count_show": session.count_show,
        "show_open": session.show_open,
    }


def check_settings(settings, tracks):
    """ValueError if these settings make no match on a board of `tracks`."""
    if settings["players"] == 3 and tracks < 3:
        raise ValueError("3 players need a 3-track board")


def session_of(saved):
    """The session a saved state holds (the board restores it at power-up;
    the host's scoreboard reads a board's state through it); ValueError,
    KeyError, TypeError or IndexError if this firmware did not write it."""
    session = Session(saved["settings"], restore(saved), saved["match_no"])
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
    for n in (boot, brightness, acked):
        if not isinstance(n, int) or n < 0:
            raise ValueError("not a count: %r" % (n,))
    if not 1 <= brightness <= 5:
        raise ValueError("brightness %r" % (brightness,))
    board.boot = boot
    board.brightness = brightness
    board.acked = acked
    return session


def power_up(store, tracks, board):
    """The session a board starts with: the saved one, else a new match (a
    state this firmware cannot read is noted as STATE_CORRUPT in the store's
    problems). Counts the boot and finishes a game's end a power cut broke
    off; the caller saves."""
    saved = store.load()
    session = None
    if saved is not None:
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
