# The board as the players see it during a game, drawn on a Renderer: front
# and back pegs, game points, the dealer, the points being entered, a win's
# skunk class; piquet's laps and rubicon; the skunk view. The board's app
# draws with it, and so does the host's live scoreboard (`cribboard live`),
# from the state a real board reports.
from cribapp import render as rc
from cribcore.game import skunk_class


def tally(match):
    """What the game-point LEDs count: game points in a race to N, else games won."""
    wins, points, _ = match.standings()
    return points if match.first_to is not None else wins


def draw_board(r, match, tally, phase, pending=0, pending_side=-1, show=False):
    """A cribbage game. phase (0 or 1) is the blink; tally from tally(match),
    worked out once per change (standings allocate); show: the deal's
    pegging is over and the hands are being counted (the dealer LED white)."""
    g = match.game
    need = match.need
    w = g.winner()
    for t in range(g.sides):
        r.hole(t, g.back(t), rc.BACK + t)
        if not (t == w and not phase):  # the winner's peg blinks in the game hole
            r.hole(t, g.score(t), rc.FRONT + t)
        lit = tally[t] if need <= 7 else tally[t] * 7 // need
        r.points(t, lit, rc.POINT + t)
    r.dealer(g.dealer() % g.sides, rc.MENU if show else rc.DEALER)
    if pending and phase:
        r.hole(pending_side, min(g.score(pending_side) + pending, 121), rc.PENDING + pending_side)
    if w is not None:
        # The win shows its skunk class: the loser's skunk lines not reached.
        loser = best_loser(g, w)
        cls = skunk_class(g.score(loser), g.target)
        lines = (91, 61, 31) if g.target == 121 else (31,)
        for k in range(cls):
            r.hole(loser, lines[k], rc.LINE)


def draw_piquet(r, g, phase, pq):
    """Totals run on past 120: a peg goes round again, and the game hole
    shows the lap (lit on the second lap, blinking on the third)."""
    for t in range(2):
        total = g.score(t)
        lap = (total - 1) // 120 if total > 0 else 0
        r.hole(t, (g.back(t) - 1) % 120 + 1 if g.back(t) else 0, rc.BACK + t)
        r.hole(t, (total - 1) % 120 + 1 if total else 0, rc.FRONT + t)
        if lap == 1 or (lap > 1 and phase):
            r.hole(t, 121, rc.FRONT + t)
    w = g.winner()
    if w is None:
        r.points(0, min(g.deal_number(), 7), rc.MENU)  # the deal being played
        r.dealer(g.dealer())
    else:
        if phase:
            r.points(w, 7, rc.POINT + w)
        if pq and g.score(1 - w) < pq.RUBICON:
            r.hole(1 - w, pq.RUBICON, rc.LINE)  # rubiconed


def best_loser(g, w):
    best = -1
    for s in range(g.sides):
        if s != w and (best < 0 or g.score(s) > g.score(best)):
            best = s
    return best


def draw_skunk(r, g, pq=None):
    """The trailing track's skunk lines (piquet, pq given: the rubicon)."""
    t = g.trailer()
    score = g.score(t)
    lines = (31,) if g.target == 61 else (31, 61, 91)
    if pq:
        lines = (pq.RUBICON,)  # the rubicon: under 100 at the end costs double
    # The zone the trailing player is in: from his street's skunk line
    # down, dim; the lines above him bright.
    low = 0
    for line in lines:
        if score >= line:
            low = line
    high = 121
    for line in lines:
        if line > score:
            high = line - 1
            break
    if high < 121:
        r.span(t, max(low, 1), high, rc.ZONE)
    for line in lines:
        r.hole(t, line, rc.LINE)
    r.hole(t, score, rc.FRONT + t)
