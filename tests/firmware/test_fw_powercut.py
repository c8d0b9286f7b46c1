# Power cuts at every instant of a scripted game: before and after every
# open, write, flush, close and rename, and with half-written flushes. After
# the restart the board must hold the state from just before or just after
# the interrupted step, and every finished game must be logged exactly once.
from cribapp.menu import ITEM_TARGET

from rig import FakeFlash, PowerCut, Table, choose, log_records

# A new match of 61-point games from the menu, then a full game (a skunk),
# with a deal passed, an undo and a redo, the win confirmed (logged) and the
# first entry of the next game.
SCRIPT = (
    ("menu", {ITEM_TARGET: 61}), ("enter", 0, 10), ("enter", 1, 12), ("tap", "OK"), ("enter", 0, 15), ("tap", "UNDO"),
    ("hold", "UNDO"), ("enter", 1, 8), ("enter", 0, 20), ("tap", "OK"), ("enter", 0, 16),
    ("tap", "OK"), ("enter", 1, 5),
)


def start(flash):
    return Table(flash=flash)


def act(t, step):
    if step[0] == "enter":
        t.enter(step[1], step[2])
    elif step[0] == "tap":
        t.tap(step[1])
    elif step[0] == "menu":
        choose(t, step[1])
    else:
        t.hold(step[1], 900)


def snap(t):
    s = t.state()
    del s["boot"]  # every boot counts itself
    return s


def keys(t):
    return [(r["match"], r["game_no"]) for r in log_records(t)]


def reference():
    t = start(FakeFlash())
    states, logs, bounds = [snap(t)], [keys(t)], [t.flash.ops]
    for step in SCRIPT:
        act(t, step)
        states.append(snap(t))
        logs.append(keys(t))
        bounds.append(t.flash.ops)
    return states, logs, bounds


def test_every_power_cut_restarts_from_a_whole_state():
    states, logs, bounds = reference()
    assert logs[-1] == [(2, 1)] and states[-1]["closed"] == [[0, 1, 3]]
    total = bounds[-1]
    checked = 0
    for torn in (False, True):
        for k in range(total):
            flash = FakeFlash(cut_at=k, torn=torn)
            try:
                t = start(flash)
                for step in SCRIPT:
                    act(t, step)
            except PowerCut:
                pass
            else:
                raise AssertionError("no power cut at operation %d" % k)
            i = 0
            while bounds[i] <= k:
                i += 1
            back = start(flash.restarted())
            got = (snap(back), keys(back))
            if got == (states[i], logs[i]):
                j = i
            else:
                j = i - 1
                assert i > 0 and got == (states[j], logs[j]), (k, torn, i)
            # Play on from there: every game ends up logged exactly once.
            for step in SCRIPT[j:]:
                act(back, step)
            assert keys(back) == logs[-1], (k, torn, keys(back))
            assert back.app.match.game.scores() == [0, 5]
            checked += 1
    assert checked == 2 * total and total > 50
