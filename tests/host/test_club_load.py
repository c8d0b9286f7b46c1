# Load: 20 simulated Pico Ws send a game each at the same moment, then live
# states while play goes on, into PostgreSQL through one `cribboard serve`:
# every game stored exactly once, every board on the page with its last scores. (`make bench`
# runs the same evening for a minute and reports the acknowledgement times
# and the server's CPU time per request: tests/bench/bench_club.py.)
# Run by `make test-club`, one test at a time after `make test`: twenty board
# processes, two servers and PostgreSQL fill a two-core machine, and beside
# other tests each starved the other (loaded runs 44, 45, 47 and 55: boards
# never through to a server, and a flash whose `mpy-cross --version` took
# over 60 s).
import clubload
import pytest


@pytest.mark.club
def test_twenty_boards_at_once_store_every_game_once(tmp_path, pg_cluster):
    figures = clubload.run(pg_cluster.new_database(), tmp_path, boards=20, live_s=10.0)
    assert figures["games_stored_once"] == 20
    assert figures["on_the_page"] == 20
    assert figures["requests"] > 20  # live states went too, not only the games


@pytest.mark.club
def test_two_servers_behind_a_balancer_each_killed_once_store_every_game_once(tmp_path, pg_cluster):
    figures = clubload.run(pg_cluster.new_database(), tmp_path, boards=20, live_s=10.0, servers=2, kill=True)
    assert figures["killed"] == 2
    assert figures["games_stored_once"] == 20
    assert figures["on_the_page"] == 20  # on both servers' pages
