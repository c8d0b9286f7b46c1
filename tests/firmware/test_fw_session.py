# The session alone: the rules of entering points on a board, with no LEDs,
# flash or clock, each command answered with what it came to.
from cribapp import codes
from cribapp.session import DEFAULT_SETTINGS, Session, first_session, match_for


def fresh(**settings):
    s = dict(DEFAULT_SETTINGS)
    s.update(settings)
    return Session(s, match_for(s, 0), 1)


def test_points_pend_until_committed_and_another_track_commits_them():
    s = fresh()
    assert s.press(0, 10) == codes.ENTRY
    assert s.press(0, 20) == codes.ENTRY
    assert s.pending == 2
    assert s.waiting()
    assert s.match.game.scores() == [0, 0]
    assert s.press(1, 30) == codes.ADDED  # the other track's point counts track 1's first
    assert s.last == (0, 2, "points", 30)
    assert s.match.game.scores() == [2, 0]
    assert s.pending == 1
    assert s.side == 1
    assert s.commit(40) == codes.ADDED
    assert s.commit(50) == codes.NOTHING


def test_the_30th_point_is_refused_and_the_29_wait_for_the_player():
    s = fresh()
    for t in range(29):
        assert s.press(1, t) == codes.ENTRY
    assert s.press(1, 29) == codes.REFUSED
    assert s.pending == 29
    assert not s.waiting()
    assert s.press(0, 30) == codes.REFUSED
    assert s.pending == 29
    assert s.ok(31) == codes.ADDED
    assert s.match.game.scores() == [0, 29]
    for t in range(30):
        s.press(0, t)
    assert s.undo() == codes.ENTRY
    assert s.pending == 0
    assert not s.held
    assert s.match.game.scores() == [0, 29]


def test_undo_redo_and_a_long_undo_with_points_pending_counts_them():
    s = fresh()
    s.press(0, 1)
    s.commit(2)
    assert s.undo() == codes.UNDONE
    assert s.match.game.scores() == [0, 0]
    assert s.undo() == codes.REFUSED  # nothing left to undo
    assert s.redo(3) == codes.REDONE
    assert s.match.game.scores() == [1, 0]
    s.press(1, 4)
    assert s.redo(5) == codes.ADDED
    assert s.match.game.scores() == [1, 1]


def test_ok_passes_the_deal_and_on_a_won_game_asks_for_it_to_be_logged():
    s = fresh(best_of=1)
    assert s.ok(1) == codes.DEAL
    assert s.match.game.dealer() == 1
    for _ in range(5):
        for _ in range(29):
            s.press(0, 2)
        s.commit(3)
    assert s.match.game.winner() == 0
    assert s.press(1, 4) == codes.REFUSED  # the game is over
    assert s.ok(5) == codes.WON
    rec = s.record()
    assert (rec["match"], rec["game_no"], rec["winner"], rec["names"]) == (1, 1, 0, ["Track 1", "Track 2"])
    assert s.advance() == codes.NEXT
    assert s.match_no == 2
    assert s.match.game.dealer() == 1
    assert s.match.game.scores() == [0, 0]


def test_counting_the_show_opens_after_the_pegging_and_piquet_has_none():
    s = fresh()
    s.count_show = True
    s.press(1, 1)
    s.commit(2)
    assert s.last[2] == "pegging"
    assert s.ok(3) == codes.SHOW
    assert s.showing()
    assert s.undo() == codes.UNDONE
    assert not s.showing()
    p = fresh(game="piquet")
    p.count_show = True
    assert not p.counting()  # piquet's entries are points
    for t in range(40):
        assert p.press(0, t) == codes.ENTRY  # and one may pass 29
    assert p.commit(41) == codes.ADDED
    assert p.last[1] == 40


def test_names_are_checked_and_kept():
    s = first_session(7)
    assert s.match_no == 8  # numbered on from the log's last match
    s.set_names(["Ann", "Bob"])
    assert s.names_for(2) == ["Ann", "Bob"]
    try:
        s.set_names(["Ann", "\u202eBob"])
        raise AssertionError("a bidi override passed")
    except ValueError:
        pass
    assert s.names == ["Ann", "Bob"]  # nothing changed


def test_a_game_takes_no_more_entries_than_one_link_reply_can_carry():
    import json

    from cribapp.session import MAX_EVENTS
    from cribcore.serialwire import MAX_REPLY

    s = fresh(players=3, best_of=1)
    s.set_names(["\u00c1" * 24, "\u4e2d" * 24, "\U0001f600" * 24])  # the longest names, in bytes
    for n in range(MAX_EVENTS):
        if n % 2:
            assert s.ok(1073741823) == codes.DEAL
        else:
            s.press(n % 3, 1)
            assert s.commit(1073741823) == codes.ADDED
    assert s.ok(1) == codes.REFUSED
    assert s.match.game.cursor == MAX_EVENTS
    s.press(0, 1)
    assert s.commit(2) == codes.REFUSED
    assert s.held
    s.match.game.add(0, 29, "points", 1073741823)  # say it ended anyway (a won game is logged)
    rec = s.record()
    rec.update(
        {
            "board": "f" * 16,
            "boot": 99999,
            "ticks": 1073741823,
            "wall": [4102444800, 1073741823],
            "firmware": "10.10.10",
        }
    )
    line = "REC 4294967295 " + json.dumps(rec)
    assert len(line.encode()) + 12 <= MAX_REPLY, len(line)  # the seal adds " ~" and 8 hex digits and \n
