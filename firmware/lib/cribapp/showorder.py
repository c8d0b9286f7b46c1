# Counting the show on the board (the "count the show" setting): a deal's
# entries are pegging until OK is tapped with nothing pending; then the
# show follows the rules' order (Game.counting_order: each player from the
# dealer's left, the dealer, then the dealer's crib), one entry each: an
# entry on a track's button is the next hand in that order that belongs to
# that track. A hand that scores nothing is simply not entered; the order
# never goes back. A second OK passes the deal.
from cribcore.game import CRIB, DEAL, HAND


def _deal_start(g):
    """Index of the current deal's first event (after the last pass)."""
    i = g.cursor
    while i > 0 and g.events[i - 1][2] != DEAL:
        i -= 1
    return i


def shown(g):
    """How far the current deal's show has gone: the index into
    g.counting_order() after the last hand entered, and whether any was."""
    order = g.counting_order()
    pos = 0
    any_shown = False
    for i in range(_deal_start(g), g.cursor):
        seat, _, kind, _ = g.events[i]
        if kind == HAND or kind == CRIB:
            any_shown = True
            for j in range(pos, len(order)):
                if order[j][0] == seat and order[j][1] == kind:
                    pos = j + 1
                    break
    return pos, any_shown


def next_entry(g, side):
    """(seat, kind) of the next hand track `side` shows, or None if it has
    nothing left to show this deal."""
    order = g.counting_order()
    pos, _ = shown(g)
    for j in range(pos, len(order)):
        seat, kind = order[j]
        if seat % g.sides == side:
            return seat, kind
    return None
