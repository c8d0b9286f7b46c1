# The club's machine's disk full under a board's reports (issue 71): the
# server answers 503 with Retry-After and one log line, acknowledges nothing
# it did not store (the board's games wait on it), and carries on by itself
# once there is room. The disk is filled for the server's process alone:
# its largest file size (RLIMIT_FSIZE) set to nothing, so each write of the
# database's fails as on a full disk (CPython ignores SIGXFSZ), then given
# back. The server writes nothing
# but its database, so this is its whole disk. (A PostgreSQL server's full
# disk is the same to the club's server: the database refuses the write,
# and the request is answered by this path.)
import json
import resource
import urllib.error
import urllib.request

import clubserver
from clubserver import KEY
from deadline import WAIT_S
from simboard import log_games
from test_club_sender import BOARD, board_with, fails, logged, records, run, sender_for, seqs

from cribapp.hostapi import HostApi
from cribboard.club.protocol import board_headers
from cribcore.clubwire import LIVE

# SQLite's word for a write past the file size limit (on a disk really full: "database or disk is full")
FULL = "disk I/O error"
ANOTHER = "feedbeeffeedbeef"  # a second paired board, whose one request is read whole here


def test_a_full_disk_is_a_503_that_acknowledges_nothing_and_the_server_carries_on_once_there_is_room(tmp_path):
    db_url = str(tmp_path / "club.sqlite3")
    clubserver.pair(db_url, ANOTHER)
    table = board_with(3)
    with clubserver.serving(db_url, BOARD) as (url, _db, proc):
        s = sender_for(table, url)
        run(table, s, lambda: table.app.board.acked == 3)
        log_games(table.store, 3, BOARD)  # three more games, played while the disk is full
        room = resource.prlimit(proc.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (0, room[1]))
        try:
            failures = s.failures
            for _ in range(3):
                fails(table, s)
            assert s.failures == failures + 3
            assert table.app.board.acked == 3, "nothing acknowledged that was not stored"
            body = json.dumps({"state": HostApi(table.app).live_state()}).encode()
            request = urllib.request.Request(
                url + LIVE.lstrip("/"), body, board_headers(KEY.encode(), LIVE, ANOTHER, "1.1", body)
            )
            try:
                urllib.request.urlopen(request, timeout=WAIT_S)
                raise AssertionError("a write to a full disk was answered 200")
            except urllib.error.HTTPError as e:
                assert e.code == 503 and e.headers["Retry-After"], (e.code, dict(e.headers))
                assert "try again" in json.loads(e.read())["error"]
            assert proc.said.wait_for(
                lambda lines: any(
                    "answered 503" in line and FULL + " (is the database's disk full?)" in line for line in lines
                )
            ), "".join(proc.said.lines)
        finally:
            resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, room)  # room again
        run(table, s, lambda: table.app.board.acked == 6)  # the games waited on the board, and go now
        assert proc.returncode is None, "the server carried on"
    assert seqs(db_url) == [1, 2, 3, 4, 5, 6]
    assert records(db_url) == logged(table)
