# A piquet partie on the cribbage board: totals run on past 120, so a peg
# goes round again and the game hole shows the lap (lit on the second lap,
# blinking on the third); the game-point LEDs count the deals (track 1's the
# six, track 2's the two more on a tie). Loaded only by boards that play it.
from cribapp import render as rc
from cribapp.boardview import View
from cribcore.partie import DEALS


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
        if not g.over():
            deal = g.deal_number()
            # The six deals on track 1's game-point LEDs, the two on a tie on track 2's.
            r.points(0, min(deal, DEALS), rc.MENU)
            r.points(1, deal - DEALS, rc.MENU)
            r.dealer(g.dealer())
            return
        w = g.winner()
        if w is None:  # drawn: both tracks' game points blink, none won
            if phase:
                r.points(0, 7, rc.POINT)
                r.points(1, 7, rc.POINT + 1)
            return
        if phase:
            r.points(w, 7, rc.POINT + w)
        self.short(r, g)  # rubiconed


PIQUET_VIEW = PiquetView()
