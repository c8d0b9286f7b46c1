# Every listing the command line prints from the database, recorded once and
# compared on both engines: what a club reads must not change when the
# storage under it does (issue 34). One club's evening is stored: a league
# of cribbage games on two boards, a piquet partie, a record kept apart, a
# crash, a rename, a barbu rubber and a piquet partie kept on sheets. The
# sheets' save times are the only words that vary: they read <time>.
# Record the files again, after a change that means to change them:
#   GOLDEN_RECORD=1 .venv/bin/pytest tests/host/test_golden.py
import json
import os
import re
from datetime import datetime
from pathlib import Path

import pytest
from clirun import cli
from test_barbu_cli import rubber_lines
from test_piquet_sheet import RUBICONED
from test_records import good

from cribboard import records, store
from cribcore.partie import PiquetMatch
from cribcore.record import game_record

GOLDEN = Path(__file__).parent / "golden"
SYNCED = "2001-11-30T00:00:00+00:00"
EVENING = [("Ann", "Bob", 80, 1), ("Bob", "Ann", 95, 2), ("Cy", "Ann", 100, 3), ("Bob", "Cy", 110, 4)]

LISTINGS = {
    "matches": ["matches"],
    "matches-board": ["matches", "--board", "oth"],
    "stats": ["stats"],
    "standings": ["standings"],
    "standings-dates": ["standings", "--since", "2001-11-02", "--until", "2001-11-03"],
    "head-to-head": ["head-to-head", "Ann", "Bob"],
    "players": ["players", "list"],
    "rejected": ["rejected"],
    "crashes": ["crashes"],
    "export-csv": ["export", "--format", "csv"],
    "export-json": ["export", "--format", "json"],
    "export-barbu": ["export", "--format", "json", "--what", "barbu"],
    "barbu-list": ["barbu", "list"],
    "barbu-show": ["barbu", "show", "1"],
    "piquet-list": ["piquet", "list"],
    "piquet-show": ["piquet", "show", "1"],
}


def noon(day):
    return datetime(2001, 11, day, 12).timestamp()


def evening(db_url, tmp_path):
    """One club's evening in the database at db_url."""
    conn = store.connect(db_url)
    for seq, (won, lost, score, day) in enumerate(EVENING, 1):
        game = records.check(json.dumps(good(seq, loser=score, names=[won, lost])))
        store.games.add(conn, "b0ard", "t", [(seq, game)], SYNCED, {seq: noon(day)})
    game = records.check(json.dumps(good(1, loser=95, names=["Cy", "Di"])))
    store.games.add(conn, "other", "t", [(1, game)], SYNCED, {1: noon(5)}, [(2, "not JSON (cut off)", '{"match": 2')])
    m = PiquetMatch(dealer=0)
    m.game.add(0, 130, "points", 10)
    for _ in range(6):
        m.game.pass_deal(30)
    rec = dict(game_record(m, 0), match=9, game_no=1, boot=1, ticks=9, wall=None, names=["Cy", "Bob"])
    store.games.add(conn, "b0ard", "t", [(9, records.check(json.dumps(rec)))], SYNCED, {9: noon(6)})
    store.reports.store_crashes(conn, "b0ard", [(4, 1234, "Traceback (most recent call last):\nMemoryError: ")], SYNCED)
    conn.close()
    for args in (
        ["players", "rename", "Dee", "--track", "2", "--board", "oth"],
        ["players", "rename", "Cyril", "--player", "Cy"],
    ):
        done = cli(*args, "--db", db_url)
        assert done.returncode == 0, done.stderr
    barbu = tmp_path / "rubber.txt"
    barbu.write_text("".join(line + "\n" for line in rubber_lines()))
    done = cli("barbu", "sheet", str(barbu), "--names", "Ann,Bob,Cy,Di", "--db", db_url)
    assert done.returncode == 0, done.stderr
    piquet = tmp_path / "partie.txt"
    piquet.write_text("".join(line + "\n" for line in RUBICONED))
    done = cli("piquet", "sheet", str(piquet), "--names", "Ann,Bob", "--db", db_url)
    assert done.returncode == 0, done.stderr


_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?([+-]\d\d:\d\d|Z)?")


def steady(text):
    """The listing with the times that are not the evening's own made <time>."""
    return _TIME.sub(lambda m: m.group(0) if m.group(0).startswith("2001-") else "<time>", text)


@pytest.fixture(scope="module")
def recording():
    return os.environ.get("GOLDEN_RECORD") == "1"


def test_every_listing_reads_as_recorded(db_url, tmp_path, recording):
    evening(db_url, tmp_path)
    GOLDEN.mkdir(exist_ok=True)
    for name, args in LISTINGS.items():
        for as_json in (False, True):
            if as_json and args[0] == "export":
                continue  # export's formats are its own
            done = cli(*args, *(["--json"] if as_json else []), "--db", db_url)
            assert done.returncode == 0, (args, done.stderr)
            said = steady(done.stdout)
            path = GOLDEN / (name + (".json" if as_json else ".txt"))
            if recording and db_url.endswith(".sqlite3"):
                path.write_text(said, encoding="utf-8")
            assert said == path.read_text(encoding="utf-8"), (name, as_json)
