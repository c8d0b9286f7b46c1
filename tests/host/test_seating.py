# The boards' seating as the club's server is given it (cribboard.seating),
# on both engines: read whole again only once something a night or a
# tournament is made of changed (a result entered or undone, a board's new
# game, a board moved, a name fixed, the night ended), and what it tells
# each board then the night as it stands.
from nightgames import record

from cribboard import store
from cribboard.night import director as nights
from cribboard.seating import Seating, told

BOARDS = ["b0ard-one", "b0ard-two"]


def test_the_seating_is_read_again_only_after_a_change(db_url):
    db = store.connect(db_url, create=True)
    try:
        seating = Seating()
        assert seating(db) == {}
        assert seating(db) == {}
        assert seating.reads == 1, "nothing changed: the events are not read again"
        store.games.add(db, BOARDS[0], "t", [(1, record(1, ["A", "B"], 0, 90))], "2026-11-27T20:00:00+00:00", {})
        store.games.add(db, BOARDS[1], "t", [(1, record(1, ["A", "B"], 0, 90))], "2026-11-27T20:00:00+00:00", {})
        night = nights.begin(db, ["Ann", "Bob", "Cy", "Di"], 3, [("1", BOARDS[0]), ("2", BOARDS[1])], seed=7)
        first = seating(db)
        assert seating.reads == 2, "a night begun is read"
        assert first == told(db)
        assert sorted(first) == BOARDS
        assert seating(db) is first, "read once, kept until a change"

        g = next(g for g in night.drawn[0] if g.table == "1")
        night = nights.enter(db, night, 1, (g.first, g.second or 0), (121, 100))
        assert seating(db) == told(db)
        assert seating.reads == 3, "a result entered is a change"

        nights.undo(db, night)
        assert seating(db) == first
        assert seating.reads == 4, "a result undone is a change"

        names = [night.roster.name(g.first), night.roster.name(g.second or 0)]
        store.games.add(db, BOARDS[0], "t", [(2, record(2, names, 0, 100))], "2026-11-27T20:30:00+00:00", {})
        after_game = seating(db)
        assert seating.reads == 5, "a board's new game is a change"
        assert after_game == told(db)
        assert after_game[BOARDS[0]] == first[BOARDS[0]], "round 1 is still in play at the other table"

        night = nights.set_board(db, nights.load(db, night.id), "2", None)
        assert seating(db) == told(db)
        assert BOARDS[1] not in seating(db)
        assert seating.reads == 6, "a board taken away is a change"

        nights.end(db, nights.load(db, night.id), early=True)
        assert seating(db) == {}
        assert seating.reads == 7, "the night ended is a change"
        assert seating(db) == {}
        assert seating.reads == 7
    finally:
        db.close()
