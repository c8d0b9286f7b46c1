# Records longer than this firmware writes (an older firmware's, or written
# by something else): the board still boots, numbers on and syncs. Here, not
# beside the store's and the link's other tests, because they need 17 KB
# blocks: this suite runs in a MicroPython process of its own, whose heap the
# hundred other tests have not cut into small pieces first.
import json

from cribapp.store import LOG, LOG_TORN, Store
from cribcore.seal import unseal

from rig import FakeFlash, Table, play


def replies(lines):
    return [unseal(line) for line in lines]


def finished_games(t, n):
    for _ in range(n):
        play(t, [0, 100], winner=0, chunk=29)
        t.tap("OK")


def test_a_last_line_of_any_length_is_read_without_holding_it_or_dropped_if_it_does_not_check():
    s = Store(FakeFlash())
    s.load()
    s.append((1, 1), json.dumps({"match": 1, "game_no": 1}))
    # An older firmware's record, longer than any this one writes.
    s.append((1, 2), json.dumps({"match": 1, "game_no": 2, "events": "x" * 17000}))
    again = Store(s.files.restarted())
    again.load()
    assert again.problems == []
    assert again.last_seq == 2
    assert [n for n, _ in again.since(0, 9)] == [1, 2]
    assert again.append((1, 3), json.dumps({"match": 1, "game_no": 3})) == 3
    flash = again.files.restarted()
    flash.disk[LOG] = flash.disk[LOG] + b"4 " + b"y" * 17000 + b" ~00000000\n"  # long, and does not check
    third = Store(flash)
    third.load()
    assert LOG_TORN in third.problems
    assert third.last_seq == 3
    assert [n for n, _ in third.since(0, 9)] == [1, 2, 3]


def test_a_record_too_long_for_one_reply_is_listed_as_such_and_never_blocks_the_sync():
    t = Table()
    t.connect()
    finished_games(t, 1)
    t.store.append((50, 1), '{"events": "%s"}' % ("x" * 20000))  # written by something else than this firmware
    finished_games(t, 1)
    got = replies(t.ask("LIST 0"))
    assert [r.split(" ", 2)[:2] for r in got[:3]] == [["REC", "1"], ["REC", "2"], ["REC", "3"]]
    assert json.loads(got[1].split(" ", 2)[2]) == {"too_long": len('{"events": ""}') + 20000}
    assert got[-1] == "END 3 3"
