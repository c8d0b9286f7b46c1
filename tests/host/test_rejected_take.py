# A record kept apart taken into the games by the director (issue 67):
# `cribboard rejected take ID`, once, its checks run again, out of the list
# then. On both engines, through the command.
import json

from clirun import cli, one_line_error
from test_records import good

from cribboard import intake, store

NOW = "2001-11-30T00:00:00+00:00"


def kept_apart(db_url):
    """A board's game 1 stored; then, as from the board wiped (firmware that names no log): another game under
    number 1, a cut record, and game 1 again under number 3. {what: the id it was kept apart under}."""
    db = store.connect(db_url)
    try:
        store.games.add(db, "b0ard", "1.0", intake.classify(db, "b0ard", [(1, json.dumps(good(1)))]).games, NOW, {})
        wiped = [(1, json.dumps(good(1, loser=90))), (2, '{"match": 2'), (3, json.dumps(dict(good(1), seq=3)))]
        batch = intake.classify(db, "b0ard", wiped)
        assert batch.games == []
        store.games.add(db, "b0ard", "1.0", [], NOW, {}, batch.apart)
        return {("other", "cut", "twin")[r["seq"] - 1]: r["id"] for r in store.reports.rejected(db)}
    finally:
        db.close()


def scores(db_url):
    return sorted(tuple(r["scores"]) for r in json.loads(cli("matches", "--db", db_url, "--json").stdout))


def test_a_checked_record_kept_apart_is_taken_into_the_games_once(db_url):
    ids = kept_apart(db_url)
    synced = json.loads(cli("boards", "--db", db_url, "--json").stdout)
    assert scores(db_url) == [(121, 80)]
    done = cli("rejected", "take", str(ids["other"]), "--db", db_url, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"id": ids["other"], "board": "b0ard", "seq": 1}
    assert scores(db_url) == [(121, 80), (121, 90)]  # the wiped board's game beside the one before
    left = json.loads(cli("rejected", "--db", db_url, "--json").stdout)
    assert sorted(r["id"] for r in left) == sorted((ids["cut"], ids["twin"]))
    assert json.loads(cli("boards", "--db", db_url, "--json").stdout) == synced  # no sync of the board's
    again = cli("rejected", "take", str(ids["other"]), "--db", db_url)
    one_line_error(again)
    assert "no record kept apart has the id %d" % ids["other"] in again.stderr
    assert scores(db_url) == [(121, 80), (121, 90)]  # once


def test_a_record_that_fails_its_checks_or_is_a_stored_game_is_not_taken(db_url):
    ids = kept_apart(db_url)
    cut = cli("rejected", "take", str(ids["cut"]), "--db", db_url)
    one_line_error(cut)
    assert "still fails its checks" in cut.stderr
    twin = cli("rejected", "take", str(ids["twin"]), "--db", db_url)
    one_line_error(twin)
    assert "has stored already (its record 1)" in twin.stderr
    assert scores(db_url) == [(121, 80)]
    assert len(json.loads(cli("rejected", "--db", db_url, "--json").stdout)) == 3  # nothing left the list
    assert cli("rejected", "take", "x", "--db", db_url).returncode == 2  # (not an id: a mistake in the command)
