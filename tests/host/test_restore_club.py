# The restore drill (issue 71): a season on ten boards over WiFi (the
# board's own sender, cribclub.sender, on CPython with its fake clock and
# real sockets) reporting into a real `cribboard serve` on PostgreSQL that
# makes its own backups: three club nights at the boards, then a
# tournament whose qualifying is cut in the middle by the club's machine
# dying with its database lost. A new
# database, the last backup restored into it (`cribboard restore`), the
# server started again where the boards look for it: each board finds out
# from its next report that the club lacks games it was told were stored,
# and sends them again by itself. Then the games table is every game the
# boards confirmed, none twice, and the standings are those before the loss.
# Run by `make test-club`, one test at a time.
import json
import os
import random
import time
import urllib.parse

import clubserver
import psycopg
import pytest
from clirun import cli
from deadline import WAIT_S
from nightgames import record
from test_club_kill import poll, sender_for

from cribapp.store import Store
from cribboard import store
from cribboard.store import backup

from rig import FakeFlash, Table

BOARDS = 10
PLAYERS = ["Player %02d" % k for k in range(1, 2 * BOARDS + 1)]


def ok(*args):
    done = cli(*args)
    assert done.returncode == 0, (args, done.stderr)
    return json.loads(done.stdout) if "--json" in args else done


def boards_of(n):
    out = []
    for k in range(n):
        ident = "%016x" % (0xD1A110000 + k)
        flash = FakeFlash()
        Store(flash).load()
        out.append((ident, Table(flash=flash, board_id=ident)))
    return out


def play_round(db_url, number, boards, rng):
    """Each table's game of the round, confirmed on its board (logged as the board logs it), and sent."""
    by_ident = {ident: table for ident, table, _s in boards}
    for g in ok("night", "round", str(number), "--db", db_url, "--json"):
        if g["second"] is None:
            continue
        table = by_ident[g["board"]]
        seq = table.store.last_seq + 1
        game = record(seq, [g["first"], g["second"]], rng.randrange(2), rng.randrange(40, 121))
        game.record.update({"board": g["board"], "match": seq})
        assert table.store.append((seq, 1), json.dumps(game.record)) == seq
    sent(boards)


def sent(boards):
    deadline = time.monotonic() + 10 * WAIT_S
    while any(table.app.board.acked < table.store.last_seq for _i, table, _s in boards):
        assert time.monotonic() < deadline, "the boards' games did not all go"
        poll(boards, 20)


def games(db_url):
    conn = store.connect(db_url)
    try:
        return [
            (r["board"], r["seq"], json.loads(r["record"]))
            for r in conn.all("SELECT board, seq, record FROM games ORDER BY board, seq")
        ]
    finally:
        conn.close()


@pytest.mark.club
def test_a_club_machine_lost_mid_night_is_restored_from_its_backup_and_the_boards_heal_it(tmp_path, pg_cluster):
    db_url = pg_cluster.new_database()
    folder = tmp_path / "backups"
    folder.mkdir()
    made = boards_of(BOARDS)
    for ident, _table in made:
        clubserver.pair(db_url, ident)
    args = ("--backup-dir", str(folder), "--backup-keep", "5")
    os.environ["CRIBBOARD_BACKUP_CHECK"] = "0.2"  # (serve is started with this environment)
    try:
        proc, url = clubserver.start(db_url, args=args)
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        boards = [(ident, table, sender_for(table, url)) for ident, table in made]
        rng = random.Random(71)
        try:
            for night in (1, 2, 3, 4):  # three club nights, then a tournament's qualifying (a night of its own)
                if night < 4:
                    ok("night", "new", *PLAYERS, "--rounds", "3", "--seed", str(night), "--db", db_url, "--json")
                    begun = "%d club night%s" % (night, "s" if night > 1 else "")
                else:
                    season = ok("night", "season", "--db", db_url, "--json")
                    ok("tournament", "new", *PLAYERS, "--games", "4", "--seed", "71", "--db", db_url, "--json")
                    begun = "1 tournament"
                assert proc.said.wait_for(  # serve's backup of the night's draw, as it begins
                    lambda lines, n=begun: any("backup made" in x and (n + "," in x or n + ")" in x) for x in lines)
                ), "".join(proc.said.lines)
                for number in (1, 2, 3) if night < 4 else (1, 2):
                    play_round(db_url, number, boards, rng)
                if night < 4:
                    ok("night", "end", "--db", db_url, "--json")
            # The tournament is two rounds in, their games past the last backup (its draw), when the machine dies.
            standings = ok("tournament", "standings", "--db", db_url, "--json")
            before = games(db_url)
            assert len(before) == 3 * 3 * BOARDS + 2 * BOARDS  # (a game at each board a round)
            proc.kill()
            proc.wait(timeout=WAIT_S)
            clubserver.stop(proc)
            name = urllib.parse.urlsplit(db_url).path.lstrip("/")
            with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:  # the disk lost: a new database
                conn.execute("DROP DATABASE %s WITH (FORCE)" % name)
                conn.execute("CREATE DATABASE %s" % name)
            newest = backup.backups_in(folder)[-1]
            ok("restore", str(newest), "--db", db_url, "--json")
            assert len(games(db_url)) < len(before), "the backup lacks the tournament's games"
            proc, url = clubserver.start(db_url, port, args=args)
            for _ident, table, _s in boards:  # a point entered at every table: each board's next report
                table.enter(0, 1)
            deadline = time.monotonic() + 10 * WAIT_S
            while games(db_url) != before:
                assert time.monotonic() < deadline, "the boards did not heal the club"
                poll(boards, 50)
            sent(boards)
        finally:
            err = clubserver.stop(proc)
    finally:
        del os.environ["CRIBBOARD_BACKUP_CHECK"]
    confirmed = sorted(
        (ident, seq, json.loads(text)) for ident, table, _s in boards for seq, text in table.store.since(0, 1000)
    )
    assert games(db_url) == confirmed, "every game the boards confirmed, once"
    assert ok("tournament", "standings", "--db", db_url, "--json") == standings
    assert ok("night", "season", "--db", db_url, "--json") == season
    assert sum("is whole again" in line for line in err.splitlines()) == BOARDS, err
