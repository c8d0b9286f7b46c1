# Power cuts at every instant of a scripted game: before and after every
# open, write, flush, close and rename, and with half-written flushes. After
# the restart the board must hold the state from just before or just after
# the interrupted step, and every finished game must be logged exactly once.
from cribapp import codes
from cribapp.menu import ITEM_TARGET

from rig import FakeFlash, PowerCut, Table, choose, log_records, play

# A new match of 61-point games from the menu, then a full game (a skunk),
# with a deal passed, an undo and a redo, the win confirmed (logged); two
# more games, the second of which ends the match (best of three) and starts
# a new one, so that three games are logged before the last cuts; and the
# first entry of the next game.
SCRIPT = (
    ("menu", {ITEM_TARGET: 61}),
    ("enter", 0, 10),
    ("enter", 1, 12),
    ("tap", "OK"),
    ("enter", 0, 15),
    ("tap", "UNDO"),
    ("hold", "UNDO"),
    ("enter", 1, 8),
    ("enter", 0, 20),
    ("tap", "OK"),
    ("enter", 0, 16),
    ("tap", "OK"),
    ("enter", 1, 29),
    ("enter", 1, 29),
    ("enter", 0, 21),
    ("enter", 1, 3),
    ("tap", "OK"),
    ("enter", 0, 29),
    ("enter", 0, 29),
    ("enter", 0, 3),
    ("tap", "OK"),
    ("enter", 1, 5),
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
    del s["up"]  # and times its own saves
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
    assert logs[-1] == [(2, 1), (2, 2), (2, 3)]
    assert states[-1]["match_no"] == 3
    assert states[-1]["closed"] == []
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
            assert back.state()["seq"] == 3
            checked += 1
    assert checked == 2 * total
    assert total > 50


def test_a_game_confirmed_on_a_full_flash_is_logged_once_there_is_room():
    flash = FakeFlash()
    t = start(flash)
    for _ in range(2):
        play(t, [0, 40], winner=0)
        t.tap("OK")
    play(t, [40, 0], winner=1)  # a third game, won while the flash is full
    flash.capacity = sum([len(v) for v in flash.disk.values()]) + 40
    t.tap("OK")  # confirmed: it cannot be logged
    assert t.error() == codes.ERR_FULL
    assert t.app.match.game.over()
    assert keys(t) == [(1, 1), (1, 2)]
    t.tap("OK")  # and again: still no room, still not lost
    assert t.app.match.game.over()
    assert [s for s, _ in t.store.since(0, 9)] == [1, 2]
    flash.capacity = 1 << 20  # synced and cleared somewhere else: room again
    t.tap("OK")
    assert keys(t) == [(1, 1), (1, 2), (2, 1)]
    assert [s for s, _ in t.store.since(0, 9)] == [1, 2, 3]
    back = start(flash.restarted())
    assert keys(back) == [(1, 1), (1, 2), (2, 1)]
    assert not back.app.match.game.over()


def test_the_first_game_confirmed_on_a_full_flash_is_logged_once_there_is_room():
    flash = FakeFlash()
    t = start(flash)
    play(t, [0, 40], winner=0)
    flash.capacity = sum([len(v) for v in flash.disk.values()]) + 40  # no room for the log's first line
    t.tap("OK")
    assert t.error() == codes.ERR_FULL
    assert t.store.since(0, 9) == []
    assert t.app.match.game.over()
    flash.capacity = 1 << 20
    t.tap("OK")
    assert keys(t) == [(1, 1)]
    assert not t.app.match.game.over()
    assert keys(start(flash.restarted())) == [(1, 1)]
