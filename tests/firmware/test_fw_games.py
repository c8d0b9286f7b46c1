# Whole games on the board, pressed out button by button with a fake clock:
# the LEDs and the stored records are checked at every milestone.
from cribapp import codes, menu
from cribapp import render as rc

from rig import Table, choose, log_records, play, seen

OFF = (0, 0, 0)


def test_two_players_to_121_with_a_skunk():
    t = Table()
    g = play(t, [0, 75], winner=0)
    assert g.winner() == 0
    assert g.scores() == [121, 75]
    lay = t.layout
    front0, front1 = t.renderer.colour(rc.FRONT), t.renderer.colour(rc.FRONT + 1)
    assert seen(t, lay.hole[0][121]) in ([front0, OFF], [OFF, front0])  # the winner blinks in the game hole
    assert seen(t, lay.hole[1][75]) == [front1]
    assert t.hole_rgb(1, 60) == t.renderer.colour(rc.BACK + 1)  # back peg: the score before (60 + 15)
    assert t.hole_rgb(1, 91) == t.renderer.colour(rc.LINE)  # skunked: the 91 line shows
    assert t.hole_rgb(1, 61) != t.renderer.colour(rc.LINE)
    assert t.rgb(lay.points[0][0]) == t.renderer.colour(rc.POINT)  # one game won
    assert t.rgb(lay.points[0][1]) == OFF

    t.tap("P2")  # the game is over: no more points
    assert t.error() == codes.ERR_REFUSED
    assert g.scores() == [121, 75]
    assert log_records(t) == []  # not logged until the win is confirmed

    t.tap("OK")
    (rec,) = log_records(t)
    assert (rec["winner"], rec["skunk"], rec["points"], rec["scores"]) == (0, 1, 3, [121, 75])
    assert (rec["match"], rec["game_no"], rec["players"], rec["board"]) == (1, 1, 2, "test-board")
    nxt = t.app.match.game
    assert nxt is not g
    assert nxt.dealer() == 1
    t.run(300)
    assert t.rgb(lay.dealer[1]) == t.renderer.colour(rc.DEALER)
    assert t.rgb(lay.dealer[0]) == OFF
    assert t.lit() == [lay.dealer[1], lay.points[0][0]]


def test_entering_points_undo_redo_and_the_29_limit():
    t = Table()
    for _ in range(3):
        t.tap("P1")
    assert t.pending(0) == 3
    assert t.app.match.game.scores() == [0, 0]
    t.run(2100)  # two idle seconds commit the entry
    assert t.app.match.game.scores() == [3, 0]
    t.tap("P2")
    t.tap("UNDO")  # cancels the pending point
    t.run(2100)
    assert t.app.match.game.scores() == [3, 0]
    t.tap("UNDO")  # then steps back through history
    assert t.app.match.game.scores() == [0, 0]
    t.hold("UNDO", 900)  # a long press redoes
    assert t.app.match.game.scores() == [3, 0]
    for _ in range(30):
        t.tap("P2")
    assert t.error() == codes.ERR_REFUSED
    t.run(5000)  # a refused entry waits for the player: the idle timer does not count it
    assert t.app.match.game.scores() == [3, 0]
    assert t.pending(1) == 29
    t.tap("P1")  # nor does another track's point push it in
    assert t.error() == codes.ERR_REFUSED
    assert t.pending(1) == 29
    assert t.pending(0) == 0
    t.tap("OK")
    assert t.app.match.game.scores() == [3, 29]
    for _ in range(30):
        t.tap("P1")
    t.tap("UNDO")  # or UNDO drops it
    t.run(3000)
    assert t.app.match.game.scores() == [3, 29]
    assert t.pending(0) == 0


def test_holding_a_point_button_past_29_enters_29_once_not_29_and_then_1():
    t = Table()
    t.hold("P2", 6000)  # the repeats reach 29; the rest are refused while it is held
    t.run(3000)
    assert t.pending(1) == 29
    assert t.app.match.game.scores() == [0, 0]
    t.tap("OK")
    assert t.app.match.game.scores() == [0, 29]
    assert t.pending(1) == 0


def test_holding_a_button_counts_up_faster():
    t = Table()
    t.hold("P1", 2000)
    # The press registers after the 20 ms debounce; then repeats at 0.5, 0.75,
    # 1.0, 1.25 and 1.5 s, and every 0.1 s after: 1.6 to 1.9 s while held.
    assert t.pending(0) == 1 + 5 + 4
    t.tap("OK")
    assert t.app.match.game.scores() == [10, 0]


def test_three_players_to_121():
    t = Table(tracks=3)
    choose(t, {menu.ITEM_PLAYERS: 3})
    assert t.app.match.players == 3
    assert t.state()["match_no"] == 2
    g = play(t, [100, 0, 50], winner=1)
    assert g.winner() == 1
    assert g.skunk() == 0
    for side, score in ((0, 100), (2, 50)):
        assert t.hole_rgb(side, score) == t.renderer.colour(rc.FRONT + side)
    assert t.hole_rgb(2, 91) != t.renderer.colour(rc.LINE)  # a plain win: no lines
    t.tap("OK")
    (rec,) = log_records(t)
    assert rec["players"] == 3
    assert rec["scores"] == [100, 121, 50]
    assert t.app.match.game.dealer() == 2  # the last-placed player deals


def test_four_players_as_teams_to_61():
    t = Table()
    choose(t, {menu.ITEM_PLAYERS: 4, menu.ITEM_TARGET: 61})
    m = t.app.match
    assert (m.players, m.target) == (4, 61)
    for _ in range(3):
        t.tap("OK")  # nothing pending: OK passes the deal
    assert m.game.dealer() == 3
    t.run(300)
    assert t.rgb(t.layout.dealer[1]) == t.renderer.colour(rc.DEALER)  # seat 3 plays for team 2
    g = play(t, [0, 25], winner=0)
    assert g.scores() == [61, 25]
    assert g.skunk() == 1
    assert t.hole_rgb(1, 31) == t.renderer.colour(rc.LINE)
    t.tap("OK")
    (rec,) = log_records(t)
    assert (rec["players"], rec["target"], rec["skunk"], rec["points"]) == (4, 61, 1, 3)


def best_of_three(scheme, first, second):
    t = Table()
    choose(t, {menu.ITEM_SCHEME: scheme})
    match_no = t.state()["match_no"]
    play(t, [0, first], winner=0)
    t.tap("OK")
    play(t, [0, second], winner=0)
    assert t.app.match.over()
    t.run(300)
    lay = t.layout
    assert t.rgb(lay.points[0][1]) == t.renderer.colour(rc.POINT)
    assert t.rgb(lay.points[1][0]) == OFF
    t.tap("OK")  # the match end is shown until OK
    recs = log_records(t)
    assert [r["game_no"] for r in recs] == [1, 2]
    assert t.state()["match_no"] == match_no + 1
    assert t.app.match.game.events == []
    return recs[-1]["match_result"]


def test_a_match_in_each_scheme():
    # Game 1 a plain win (loser 95), game 2 a skunk (loser 70).
    assert best_of_three("acc", 95, 70) == {"winner": 0, "wins": [2, 0], "points": [5, 0]}
    assert best_of_three("long", 95, 70) == {"winner": 0, "wins": [2, 0], "points": [7, 0]}
    assert best_of_three("free", 95, 70) == {"winner": 0, "wins": [2, 0], "points": [3, 0]}
    assert best_of_three("free_triple", 95, 70) == {"winner": 0, "wins": [2, 0], "points": [3, 0]}


def test_a_triple_skunk_wins_the_match_outright():
    t = Table()
    choose(t, {menu.ITEM_SCHEME: "free_triple", menu.ITEM_LENGTH: (7, None)})
    play(t, [20, 0], winner=1)
    assert t.app.match.over()
    t.tap("OK")
    (rec,) = log_records(t)
    assert rec["skunk"] == 3
    assert rec["points"] == -1
    assert rec["match_result"]["winner"] == 1
    assert rec["best_of"] == 7
    assert t.state()["match_no"] == 3


def test_skunk_and_match_views_time_out():
    t = Table()
    t.enter(0, 20)
    t.enter(0, 20)
    t.enter(1, 15)
    t.tap("SKUNK")
    lay = t.layout
    # Trailing at 15, in the triple-skunk zone: holes 1-30 dim, lines bright.
    assert t.hole_rgb(1, 10) == t.renderer.colour(rc.ZONE)
    assert [t.hole_rgb(1, h) for h in (31, 61, 91)] == [t.renderer.colour(rc.LINE)] * 3
    assert t.hole_rgb(1, 15) == t.renderer.colour(rc.FRONT + 1)
    t.run(4100)
    assert t.hole_rgb(1, 10) == OFF
    assert t.hole_rgb(1, 31) == OFF
    assert t.hole_rgb(0, 40) == t.renderer.colour(rc.FRONT)
    t.hold("SKUNK", 900)
    assert t.hole_rgb(0, 2) == t.renderer.colour(rc.MARK)  # best of 3: two wins needed
    assert t.hole_rgb(0, 40) == OFF  # no pegs: the match view
    t.run(4100)
    assert t.hole_rgb(0, 2) == OFF
    assert t.hole_rgb(0, 40) == t.renderer.colour(rc.FRONT)
    assert lay.n == 258


def test_the_power_limiter_holds_every_frame_under_budget():
    t = Table(budget=60)
    t.enter(0, 20)
    t.enter(1, 3)
    for _ in range(40):
        t.tap("SKUNK")  # a view with 30 LEDs lit
        ua = 0
        for i in t.lit():
            r, g, b = t.rgb(i)
            ua += (r + g + b) * 20 * 1000 // 255
        assert ua <= 60 * 1000, ua
    assert t.renderer.last_ua <= 60 * 1000


def test_the_strip_is_written_only_when_the_frame_changes():
    t = Table()
    t.enter(0, 5)
    t.run(500)
    writes = t.strip.writes
    t.run(3000)
    assert t.strip.writes == writes
    t.tap("P1")
    t.run(300)  # the pending point blinks ahead of the peg
    assert t.strip.writes > writes


def test_a_full_flash_never_costs_the_running_match():
    from rig import FakeFlash

    flash = FakeFlash()
    t = Table(flash=flash)
    t.enter(0, 12)
    saved = dict(flash.disk)
    flash.capacity = sum([len(v) for v in flash.disk.values()]) + 40  # almost no room left
    t.enter(1, 9)
    assert t.error() == codes.ERR_FULL
    assert t.app.match.game.scores() == [12, 9]
    assert flash.disk["state.json"] == saved["state.json"]  # the last good state is whole
    t.enter(1, 2)
    assert t.app.match.game.scores() == [12, 11]  # play goes on in memory
    flash.capacity = 1 << 20  # games synced and cleared: room again
    t.enter(0, 1)
    back = Table(flash=flash.restarted())
    assert back.app.match.game.scores() == [13, 11]


def test_a_piquet_partie_on_the_board():
    t = Table()
    choose(t, {menu.ITEM_PLAYERS: "piquet"})
    app, lay = t.app, t.layout
    assert app.match.kind == "piquet"
    for _ in range(40):
        t.tap("P1")  # 40 in one entry: piquet's counts pass 29
    t.tap("OK")
    g = app.match.game
    assert g.scores() == [40, 0]
    assert t.error() == 0
    t.run(300)
    assert t.rgb(lay.points[0][0]) == t.renderer.colour(rc.MENU)
    assert t.rgb(lay.points[0][1]) == OFF
    assert t.rgb(lay.dealer[0]) == t.renderer.colour(rc.DEALER)
    for _ in range(5):
        t.tap("OK")  # nothing pending: the deal is over
        t.enter(0, 19)
    assert g.scores() == [135, 0]
    assert g.deal_number() == 6
    t.run(300)
    # 135 is the second lap: the peg at hole 15, the game hole lit for the lap.
    assert t.hole_rgb(0, 15) == t.renderer.colour(rc.FRONT)
    assert t.hole_rgb(0, 121) == t.renderer.colour(rc.FRONT)
    assert [t.rgb(lay.points[0][k]) != OFF for k in range(7)] == [True] * 6 + [False]
    t.enter(1, 12)
    t.tap("OK")  # the sixth deal ends the partie: 135 to 12, rubiconed
    assert g.over()
    assert g.rubicon() == (0, 100 + 135 + 12)
    assert t.hole_rgb(1, 100) == t.renderer.colour(rc.LINE)
    t.tap("OK")  # confirm: logged, and a new partie starts with the other dealer
    (rec,) = log_records(t)
    assert (rec["game"], rec["scores"], rec["winner"], rec["points"]) == ("piquet", [135, 12], 0, 247)
    assert app.match.game.events == []
    assert app.match.game.dealer() == 1


def test_a_big_piquet_deal_goes_in_by_tens_on_skunk():
    t = Table()
    choose(t, {menu.ITEM_PLAYERS: "piquet"})
    g = t.app.match.game
    for _ in range(3):
        t.tap("P1")
    for _ in range(15):
        t.tap("SKUNK")  # ten more each, not the rubicon view
    assert t.app.session.pending == 153
    assert t.app.mode == codes.PLAY
    t.tap("OK")
    assert g.scores() == [153, 0]
    assert t.error() == 0
    t.tap("SKUNK")  # nothing being entered: SKUNK shows the rubicon line as ever
    assert t.app.mode == codes.SKUNK_VIEW
    t.run(4100)
    for _ in range(5):
        t.tap("P2")
    for _ in range(24):
        t.tap("SKUNK")
    assert t.app.session.pending == 245
    t.tap("SKUNK")  # 255 would pass the most one entry may be: refused, held, nothing lost
    assert t.error() == codes.ERR_REFUSED
    assert t.app.session.pending == 245
    assert t.app.session.held
    t.tap("OK")
    assert g.scores() == [153, 245]


def test_skunk_never_adds_ten_to_a_cribbage_entry():
    t = Table()
    t.tap("P1")
    t.tap("SKUNK")
    assert t.app.session.pending == 1
    assert t.app.mode == codes.SKUNK_VIEW
    t.tap("OK")
    assert t.app.match.game.scores() == [1, 0]


def deal_leds(t):
    """Which game-point LEDs of each track are lit, as a tuple of tuples."""
    t.run(300)
    return tuple(tuple(t.rgb(i) != OFF for i in t.layout.points[k]) for k in range(2))


def test_every_piquet_deal_has_its_own_pattern_and_a_drawn_partie_blinks():
    t = Table()
    choose(t, {menu.ITEM_PLAYERS: "piquet"})
    g = t.app.match.game
    patterns = []
    for deal in range(8):  # every deal 10 all: tied after six, two more, still tied
        assert g.deal_number() == deal + 1
        patterns.append(deal_leds(t))
        t.enter(0, 10)
        t.enter(1, 10)
        t.tap("OK")  # the deal is over
    assert len(set(patterns)) == 8  # deal 8 no longer looks like deal 7
    assert patterns[6] == ((True,) * 6 + (False,), (True,) + (False,) * 6)
    assert g.over()
    assert g.winner() is None
    assert g.scores() == [80, 80]
    both = [t.renderer.colour(rc.POINT), t.renderer.colour(rc.POINT + 1)]
    assert OFF in seen(t, t.layout.points[0][6])
    assert both[0] in seen(t, t.layout.points[0][6])
    assert OFF in seen(t, t.layout.points[1][6])
    assert both[1] in seen(t, t.layout.points[1][6])
    t.tap("OK")  # confirmed: logged as a draw, a new partie
    (rec,) = log_records(t)
    assert (rec["scores"], rec["winner"], rec["points"]) == ([80, 80], None, None)
    assert t.app.match.game.events == []


def test_clearing_the_game_log_never_numbers_a_game_again():
    t = Table()
    for _ in range(2):
        play(t, [0, 40], winner=0)
        t.tap("OK")
    assert [seq for seq, _ in t.store.since(0, 9)] == [1, 2]
    flash = t.flash.restarted()
    del flash.disk["games.log"]  # the README's way out of a full flash, once the games are synced
    again = Table(flash=flash)
    play(again, [0, 40], winner=0)
    again.tap("OK")
    assert [seq for seq, _ in again.store.since(0, 9)] == [3]  # a host that holds 1 and 2 takes it
    assert again.state()["seq"] == 3


def test_a_press_or_a_refusal_shows_at_once_whatever_the_blink_phase():
    from rig import FakeClock

    for start in range(0, 500, 30):  # every moment of the 250 ms blink
        t = Table(clock=FakeClock(start=start))
        t.levels["P1"] = True
        t.run(30)  # the 20 ms debounce and the pass that draws
        assert t.hole_rgb(0, 1) == t.renderer.colour(rc.PENDING), start  # lit now, not a blink later
        t.levels["P1"] = False
        t.run(40)
        t.tap("UNDO")  # drops the pending point
        t.run(start)  # another moment of the blink
        t.levels["UNDO"] = True  # nothing left to undo: refused
        t.run(30)
        t.levels["UNDO"] = False
        t.run(30)  # UNDO acts on its release (a long press redoes): that pass draws the refusal
        lit = [t.rgb(i) for i in t.layout.points[0][: codes.ERR_REFUSED + 1]]
        assert lit == [t.renderer.colour(rc.ERROR)] * codes.ERR_REFUSED + [OFF], (start, lit)


def test_a_gesture_is_drawn_before_it_is_saved_and_told_after():
    # The LEDs answer OK at once; the save (tens of ms on a Pico) and the
    # host's event follow in the same pass, so neither delays the frame and
    # a host never hears of an entry the flash does not hold.
    t = Table()
    t.connect()
    t.ask("WATCH on")
    t.enter(0, 2)
    for _ in range(3):
        t.tap("P2")
    at_write = []
    write = t.strip.write

    def watched_write():
        write()
        at_write.append((t.flash.disk["state.json"], t.stream.out))

    t.strip.write = watched_write
    t.stream.lines()  # the events of the entries before
    before = t.flash.disk["state.json"]
    t.levels["OK"] = True
    t.run(60)
    t.levels["OK"] = False
    while t.flash.disk["state.json"] == before:
        t.run(10)
    assert at_write
    assert at_write[-1] == (before, b"")
    assert t.hole_rgb(1, 3) != (0, 0, 0)
    assert t.app.match.game.scores() == [2, 3]
    assert t.stream.lines()  # told once saved, in the same pass
    back = Table(flash=t.flash.restarted())
    assert back.app.match.game.scores() == [2, 3]
