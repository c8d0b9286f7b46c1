# What the board shows, drawn on a Renderer as pure functions of the match:
# the game (front and back pegs, game points, the dealer, the points being
# entered, a win's skunk lines), the skunk view and the match view. One
# View a kind of match (piquet's in cribapp.piquetview); the board's loop
# draws with it, and so does the host's live scoreboard (`cribboard live`)
# from the state a real board reports.
from cribapp import render as rc
from cribcore.match import PIQUET, SCHEME_ORDER


def tally(match):
    """What the game-point LEDs count: game points in a race to N, else games won."""
    wins, points, _ = match.standings()
    return points if match.first_to is not None else wins


class View:
    """Cribbage: a peg path of 120 holes and the game hole."""

    def board(self, r, match, tally, phase, pending=0, side=-1, show=False):
        """The game. phase (0 or 1) is the blink; tally from tally(match),
        worked out once per change (standings allocate); pending points on
        track `side`; show: the deal's pegging is over and the hands are
        being counted (the dealer LED white)."""
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
            r.hole(side, min(g.score(side) + pending, 121), rc.PENDING + side)
        if w is not None:
            self.short(r, g)

    def short(self, r, g):
        """A won game: the lines the best-placed loser fell short of (a
        skunk's class, piquet's rubicon)."""
        loser = g.loser()
        score = g.score(loser)
        for line in g.lines():
            if score < line:
                r.hole(loser, line, rc.LINE)

    def skunk(self, r, g):
        """The trailing track's lines (skunk lines; piquet's rubicon): from
        the line below its peg up to the next one, dim; the lines bright."""
        t = g.trailer()
        score = g.score(t)
        lines = g.lines()
        low = 0
        high = 121
        for line in lines:
            if score >= line:
                low = line
            elif high == 121:
                high = line - 1
        if high < 121:
            r.span(t, max(low, 1), high, rc.ZONE)
        for line in lines:
            r.hole(t, line, rc.LINE)
        r.hole(t, score, rc.FRONT + t)

    def match(self, r, match, tally):
        """The match view: games or game points so far against what wins,
        and the scheme's number on the game-point LEDs."""
        for t in range(match.sides):
            r.span(t, 1, min(tally[t], 120), rc.FRONT + t)
            r.hole(t, match.need, rc.MARK)
            if match.scheme in SCHEME_ORDER:
                r.points(t, SCHEME_ORDER.index(match.scheme) + 1, rc.MENU)


CRIBBAGE_VIEW = View()


def view_for(match):
    """The View that draws this kind of match."""
    if match.kind == PIQUET:
        from cribapp.piquetview import PIQUET_VIEW  # only boards that play piquet load it

        return PIQUET_VIEW
    return CRIBBAGE_VIEW
