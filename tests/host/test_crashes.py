# Crashes a board logged reach the database with the next sync, are listed
# by `cribboard crashes`, and are cleared from the board only once stored.
import json

from clirun import cli
from simboard import Board

from cribapp import crashlog
from cribapp.store import FlashFiles


def test_sync_stores_the_crash_log_clears_it_from_the_board_and_crashes_lists_it(tmp_path, db_url):
    flash = tmp_path / "flash"
    board = Board(flash)  # seeds the flash; the board below starts with two crashes in its log
    board.stop()
    files = FlashFiles(str(flash))
    crashlog.append(files, 3, 12000, "Traceback (most recent call last):\n  File \"app.py\"\nKeyError: 'x'\n")
    crashlog.append(files, 4, 95000, "Traceback (most recent call last):\nOSError: [Errno 5] EIO\n")
    board = Board(flash, seed=False)
    try:
        done = cli("sync", "--port", board.port, "--db", db_url, "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["crashes"] == 2
        assert "crashed 2 times" in done.stderr
        again = json.loads(cli("sync", "--port", board.port, "--db", db_url, "--json").stdout)
        assert again["crashes"] == 0  # cleared from the board once stored
    finally:
        board.stop()
    assert crashlog.entries(files) == []
    listed = json.loads(cli("crashes", "--db", db_url, "--json").stdout)
    assert [(c["boot"], c["uptime_ms"]) for c in listed] == [(3, 12000), (4, 95000)]
    assert listed[0]["text"].endswith("KeyError: 'x'\n")
    table = cli("crashes", "--db", db_url)
    assert "KeyError: 'x'" in table.stdout
    assert "95.0 s" in table.stdout
