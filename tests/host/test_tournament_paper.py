# A tournament on paper and as data (cribboard.tournament.printouts): the
# places as CSV and the whole tournament as JSON agree with the tournament
# as it stands; the bracket's PDF has a page for a bracket of 32 or fewer,
# and parts (a page a block of 16 first-round matches, then one to the
# final) for a larger one: 132 entrants qualify 33 to a bracket of 64. And
# two tournaments' playoffs seated side by side (a consolation).
import csv
import io
import re

import pytest

from cribboard import seating, store
from cribboard.event.refusals import Ended, NotInPlay, Unknown
from cribboard.night import director as nights
from cribboard.tournament import director, printouts


def qualified(tmp_path, entrants):
    """A tournament whose qualifying (one pairing, two games) is in, the lower number winning by more the
    lower it is, and its cut made."""
    db = store.connect(str(tmp_path / "t.sqlite3"), create=True)
    names = ["Entrant %03d" % n for n in range(1, entrants + 1)]
    t = director.begin(db, names, 2, nights.tables_for(db, [], entrants), seed=3)
    for number, games in enumerate(t.night.drawn, 1):
        for g in games:
            if g.second is not None:
                winner, loser = sorted((g.first, g.second))
                store.nights.enter(db, t.night.id, number, (winner, loser), (121, 91 + winner % 30), 121, None, "now")
    t = director.load(db, t.id)
    c, rows = t.the_cut(), t.standings()
    take = ["#%d" % rows[i].number for i in c.tied[: c.open_places()]]  # (equal at the line: the first)
    return db, director.make_cut(db, t, take)


def pages(pdf):
    assert pdf.startswith(b"%PDF")
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


def test_places_and_the_whole_tournament_as_data_agree_with_it(tmp_path):
    db, t = qualified(tmp_path, 24)
    try:
        rows = list(csv.DictReader(io.StringIO(printouts.places_csv(t))))
        assert [int(r["number"]) for r in rows] == [p for _place, p in t.places()]
        assert [r["place"] for r in rows[:6]] == [""] * 6  # the playoffs not played: the qualifiers unplaced
        assert [r["seed"] for r in rows[:6]] == ["1", "2", "3", "4", "5", "6"]
        data = printouts.as_data(t)
        assert data["entrants"] == 24
        assert [s["number"] for s in data["seeds"]] == t.seeds
        assert [q["cut"] for q in data["qualifying"]].count("through") == 6
        assert len(data["bracket"]) == 4 + 2 + 1
        assert pages(printouts.bracket_pdf(t)) == 1
    finally:
        db.close()


def test_a_bracket_of_64_is_printed_in_parts(tmp_path):
    db, t = qualified(tmp_path, 132)
    try:
        assert len(t.seeds or []) == 33
        assert pages(printouts.bracket_pdf(t)) == 2 + 1  # 32 first-round matches: two blocks, then the top
    finally:
        db.close()


def test_a_consolation_beside_the_main_events_playoffs_is_seated_too_until_each_ends(tmp_path):
    """Two tournaments in their playoffs at once (the main event's, and a consolation for those who did not
    qualify, at tables of its own): each board at a match's table is told its pair and length; a tournament
    ended is no longer seated, and takes no more results."""
    db = store.connect(str(tmp_path / "t.sqlite3"), create=True)
    try:
        for n in range(1, 9):
            store.club.pair(db, "b%d" % n, b"k" * 32, "2026-11-28T20:00:00+00:00")
        main = director.begin(
            db, ["M%d" % n for n in range(1, 9)], 2, [(str(n), "b%d" % n) for n in (1, 2, 3, 4)], seed=1
        )
        side = director.begin(
            db, ["C%d" % n for n in range(1, 9)], 2, [(str(n), "b%d" % n) for n in (5, 6, 7, 8)], seed=2
        )
        for t in (main, side):
            for number, games in enumerate(t.night.drawn, 1):
                for g in games:
                    winner, loser = sorted((g.first, g.second or 0))
                    store.nights.enter(db, t.night.id, number, (winner, loser), (121, 90 + winner), 121, None, "x")
        main = director.make_cut(db, director.load(db, main.id))
        side = director.make_cut(db, director.load(db, side.id))
        seated = seating.told(db)
        assert seated == {
            "b1": {"names": [main.night.label(p) for p in main.seeds or []], "best_of": 5},
            "b5": {"names": [side.night.label(p) for p in side.seeds or []], "best_of": 5},
        }
        director.end(db, side, early=True)
        assert set(seating.told(db)) == {"b1"}
        with pytest.raises(Ended, match="has ended"):
            director.enter(db, director.load(db, side.id), ("#1", "#2"), (121, 100))
    finally:
        db.close()


def test_a_game_past_a_won_matchs_games_is_refused_and_one_of_its_games_is_fixed(tmp_path):
    db, t = qualified(tmp_path, 24)
    try:
        match = next(p for p in director.playoffs_of(t).matches.values() if not p.pairing.bye)
        high, low = (t.night.label(p) for p in match.players if p is not None)
        for _game in range(2):
            t, _slot = director.enter(db, t, (high, low), (121, 100))
        won = director.playoffs_of(t).matches[(match.pairing.round, match.pairing.slot)]
        assert won.wins == (2, 0)
        with pytest.raises(NotInPlay, match="games 1 to 2 can be entered"):
            director.enter(db, t, (high, low), (121, 90), game_no=3)
        t, _slot = director.enter(db, t, (high, low), (121, 90), game_no=2)  # a fix of a game counted
        assert director.playoffs_of(t).matches[(match.pairing.round, match.pairing.slot)].wins == (2, 0)
    finally:
        db.close()


def test_a_name_a_tournament_command_cannot_place_is_said_as_the_tournaments_with_those_it_could_be(tmp_path):
    db, t = qualified(tmp_path, 24)
    try:
        seeds = t.seeds or []
        out = next(r.number for r in t.standings() if r.number not in seeds)  # an entrant who did not qualify
        with pytest.raises(Unknown) as refused:
            director.enter(db, t, (t.night.label(out), t.night.label(seeds[0])), (121, 100))
        said = str(refused.value)
        assert said.startswith("%s is not a qualifier of tournament %d (its qualifiers: " % (t.night.label(out), t.id))
        assert "night" not in said
        with pytest.raises(Unknown, match="Zed is not a qualifier of tournament"):
            director.enter(db, t, ("Zed", t.night.label(seeds[0])), (121, 100))
        with pytest.raises(Unknown, match=r"entrant 001 is not in tournament \d+: Entrant 001 is"):
            t.night.roster.find("entrant 001")
    finally:
        db.close()
