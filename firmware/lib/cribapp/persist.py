# The board's saved state: one small JSON object (finished games are in the
# log) made of the session and the board's own fields. cribapp.restore
# reads it back at power-up; the session never knows it is saved.
STATE_VERSION = 1


class Board:
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
