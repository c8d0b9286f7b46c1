# A piquet partie on the cribbage board: totals run on past 120, so a peg
# goes round again and the game hole shows the lap (lit on the second lap,
# blinking on the third); the game-point LEDs count the deals. Loaded only
# by boards that play piquet.
from cribapp import render as rc
from cribapp.boardview import View


def _hole(total):
    """Where a total stands on a lap of 120 holes (0: not started)."""
    return (total - 1) % 120 + 1 if total > 0 else 0


class PiquetView(View):
    def board(self, r, match, tally, phase, pending=0, side=-1, show=False):
        g = match.game
        for t in range(2):
            total = g.score(t)
            lap = (total - 1) // 120 if total > 0 else 0
            r.hole(t, _hole(g.back(t)), rc.BACK + t)
            r.hole(t, _hole(total), rc.FRONT + t)
            if lap == 1 or (lap > 1 and phase):
                r.hole(t, 121, rc.FRONT + t)
        if pending and phase:
            r.hole(side, _hole(g.score(side) + pending), rc.PENDING + side)
        w = g.winner()
        if w is None:
            r.points(0, min(g.deal_number(), 7), rc.MENU)  # the deal being played
            r.dealer(g.dealer())
            return
        if phase:
            r.points(w, 7, rc.POINT + w)
        self.short(r, g)  # rubiconed


PIQUET_VIEW = PiquetView()
