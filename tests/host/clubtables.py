# The club's tables for the end-to-end tests of a night and a tournament
# (`make test-club`): simulated Pico Ws paired with the club's server as
# `cribboard wifi` and `cribboard pair` leave a board, then started; and
# the finished games the database holds, to count the standings from; and
# the tables' games played side by side.
import json
import random
import threading

from simboard import Board

from cribapp.hostapi import keep_conf
from cribapp.store import FlashFiles
from cribboard import store
from cribboard.sim.simulator import board_ident


def paired_boards(tmp_path, db_url, url, count, boards):
    """count boards paired with the server at url and started, appended to boards as each starts (so the
    caller stops every one that did, whatever fails); {board id: board}."""
    conn = store.connect(db_url)
    try:
        for n in range(count):
            flash = tmp_path / ("table%d" % n)
            flash.mkdir()
            key = "%032x" % random.Random(n).getrandbits(128)
            files = FlashFiles(str(flash))
            keep_conf(files, "wifi", {"ssid": "club", "password": "a password"})
            keep_conf(files, "club", {"server": url, "key": key})
            store.club.pair(conn, board_ident(flash), key.encode(), "2026-11-27T19:00:%02d+00:00" % n)
            boards.append(Board(flash))  # the firmware put beside them, and started
    finally:
        conn.close()
    return {board_ident(b.flash): b for b in boards}


def stored_games(db_url):
    """Every finished game the database holds, oldest first: (names by track, scores, winning track)."""
    conn = store.connect(db_url)
    try:
        out = []
        for g in conn.all("SELECT id, scores, winner FROM games WHERE winner IS NOT NULL ORDER BY id"):
            names = [
                r["name"]
                for r in conn.all(
                    "SELECT p.name FROM game_players gp JOIN players p ON p.id = gp.player_id WHERE gp.game_id = ? "
                    "ORDER BY gp.track",
                    (g["id"],),
                )
            ]
            out.append((names, json.loads(g["scores"]), g["winner"]))
        return out
    finally:
        conn.close()


def counted(games, players):
    """The ACC's count of these games ({player: [game points, games won, spread]}, every player of players
    in it): 2 a win, 3 a skunk (the loser short of 91), the spread the loser's distance from 121."""
    mine = {p: [0, 0, 0] for p in players}
    for names, scores, winner in games:
        won, lost = names[winner], names[1 - winner]
        margin = 121 - scores[1 - winner]
        mine[won][0] += 3 if scores[1 - winner] < 91 else 2
        mine[won][1] += 1
        mine[won][2] += margin
        mine[lost][2] -= margin
    return mine


def together(jobs, limit_s):
    """Each job on a thread of its own, all at once (the tables play side by side), each given limit_s to
    end; what failed on a thread is said here."""
    started(jobs, limit_s)()


def started(jobs, limit_s):
    """Each job started on a thread of its own (the tables play while the test does more); join(): waits for
    them, each given limit_s to end, and says what failed on a thread."""
    threads, failed = [], []
    for job in jobs:

        def run(job=job):
            try:
                job()
            except BaseException as e:
                failed.append(e)

        threads.append(threading.Thread(target=run))
    for t in threads:
        t.start()

    def join():
        for t in threads:
            t.join(limit_s)
        assert not failed, failed

    return join
