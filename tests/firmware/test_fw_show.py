# Counting the show (menu item 8): a deal's entries are pegging until OK,
# then the hands in the rules' order and the crib, each entry on the
# button of the track whose hand it is; a second OK passes the deal. The
# kinds go into the record, so the host can tell pegging from the show.
from cribapp import codes as board
from cribapp import menu
from cribapp import render as rc

from rig import Table, choose, log_records


def counting(tracks=2, players=None):
    t = Table(tracks=tracks)
    values = {menu.ITEM_SHOW: 1}
    if players:
        values[menu.ITEM_PLAYERS] = players
    choose(t, values)
    assert t.error() == 0
    return t


def kinds(t):
    g = t.app.match.game
    return [(e[0], e[1], e[2]) for e in g.events[: g.cursor]]


def test_pegging_then_the_show_in_order_then_the_next_deal():
    t = counting()
    t.enter(0, 2)  # the first dealer is track 1: pegging
    t.enter(1, 3)
    assert not t.showing()
    t.tap("OK")  # nothing pending: the pegging is over
    assert t.showing()
    assert t.rgb(t.layout.dealer[0]) == t.renderer.colour(rc.MENU)
    t.enter(1, 8)  # the non-dealer's hand first
    t.enter(0, 12)  # the dealer's hand
    t.enter(0, 4)  # the dealer's crib
    t.enter(0, 2)  # nothing left to show on track 1
    assert t.error() == board.ERR_REFUSED
    t.tap("UNDO")  # the refused entry dropped
    t.tap("OK")  # the second OK passes the deal
    assert not t.showing()
    assert t.app.match.game.dealer() == 1
    assert t.rgb(t.layout.dealer[1]) == t.renderer.colour(rc.DEALER)
    t.enter(0, 1)  # the next deal's pegging
    assert kinds(t) == [
        (0, 2, "pegging"),
        (1, 3, "pegging"),
        (1, 8, "hand"),
        (0, 12, "hand"),
        (0, 4, "crib"),
        (0, 0, "deal"),
        (0, 1, "pegging"),
    ]


def test_a_zero_hand_is_skipped_the_order_never_goes_back_and_impossible_shows_are_refused():
    t = counting()
    t.tap("OK")
    t.enter(0, 19)  # "nineteen": no hand makes it
    assert t.error() == board.ERR_REFUSED
    assert kinds(t) == []
    assert t.pending(0) == 19
    t.tap("UNDO")  # the mistaken count waits to be dropped
    t.enter(0, 6)  # the non-dealer scored nothing: the dealer shows
    t.enter(1, 5)  # the non-dealer cannot show after the dealer
    assert t.error() == board.ERR_REFUSED
    t.tap("UNDO")
    assert kinds(t) == [(0, 6, "hand")]
    assert t.pending(0) == 0


def test_undo_takes_back_the_ok_that_ended_the_pegging_and_a_power_cut_keeps_the_show():
    t = counting()
    t.enter(1, 4)
    t.tap("OK")
    assert t.showing()
    t.tap("UNDO")  # the OK taken back: still pegging
    assert not t.showing()
    assert kinds(t) == [(1, 4, "pegging")]
    t.tap("OK")
    t.enter(1, 10)
    again = Table(flash=t.flash.restarted())  # a power cut in the show
    assert again.showing()
    again.enter(0, 7)
    assert kinds(again) == [(1, 4, "pegging"), (1, 10, "hand"), (0, 7, "hand")]
    again.tap("UNDO")
    again.tap("UNDO")  # the show's entries undone: the show is still open until UNDO again
    assert again.showing()
    again.tap("UNDO")
    assert not again.showing()
    assert kinds(again) == [(1, 4, "pegging")]


def test_teams_of_two_show_in_seat_order_on_their_track():
    t = counting(players=4)  # seats 0 and 2 on track 1, seats 1 and 3 on track 2; seat 0 deals
    t.tap("OK")
    for side, points in ((1, 4), (0, 6), (1, 8), (0, 10), (0, 3)):
        t.enter(side, points)
    assert kinds(t) == [(1, 4, "hand"), (2, 6, "hand"), (3, 8, "hand"), (0, 10, "hand"), (0, 3, "crib")]


def test_the_kinds_reach_the_record_and_the_game_can_end_in_the_show():
    t = counting()
    for _ in range(4):
        t.enter(1, 29)  # track 2 pegs to 116 (pegging, in one deal: the board does not judge)
    t.tap("OK")
    t.enter(1, 5)  # out on the non-dealer's hand, before the dealer counts
    assert t.app.match.game.winner() == 1
    t.tap("OK")
    (rec,) = log_records(t)
    assert [e[2] for e in rec["events"]] == ["pegging"] * 4 + ["hand"]


def test_with_the_setting_off_entries_are_points_and_ok_passes_the_deal():
    t = Table()
    t.enter(0, 5)
    t.tap("OK")
    assert kinds(t) == [(0, 5, "points"), (0, 0, "deal")]
    choose(t, {menu.ITEM_SHOW: 1})
    assert t.app.match.game.scores() == [5, 0]  # turning it on keeps the match
