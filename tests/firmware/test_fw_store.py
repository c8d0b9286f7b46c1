# The store: atomic state, the log of finished games, and recovery at boot.
import json

from cribapp.store import FULL, LOG, LOG_TORN, STATE, STATE_BAD, STATE_CORRUPT, STATE_TMP, Store
from cribcore.seal import seal, unseal

from rig import FakeFlash


def test_seal_catches_any_change():
    line = seal('12 {"a": 1}')
    assert unseal(line) == '12 {"a": 1}'
    for i in range(len(line) - 1):
        mangled = bytearray(line)
        mangled[i] = (mangled[i] + 1) % 256
        assert unseal(bytes(mangled)) is None, i
    assert unseal(line[:-5]) is None
    assert unseal(b"\xff\xfe ~00000000") is None
    assert unseal("") is None


def test_state_round_trip_and_atomic_replace():
    flash = FakeFlash()
    s = Store(flash)
    assert s.load() is None
    assert s.save({"n": 1})
    assert s.save({"n": 2})
    assert STATE_TMP not in flash.disk
    assert Store(flash.restarted()).load() == {"n": 2}


def test_a_corrupt_state_is_kept_aside():
    flash = FakeFlash()
    Store(flash).save({"n": 1})
    flash.disk[STATE] = flash.disk[STATE][:-3] + b"zz\n"
    s = Store(flash.restarted())
    assert s.load() is None
    assert STATE_CORRUPT in s.problems
    assert STATE_BAD in s.files.disk
    assert STATE not in s.files.disk


def test_log_appends_once_per_key_and_lists_since():
    s = Store(FakeFlash())
    s.load()
    assert s.append((1, 1), json.dumps({"match": 1, "game_no": 1})) == 1
    assert s.append((1, 1), json.dumps({"match": 1, "game_no": 1})) == 1  # logged already
    assert s.append((1, 2), json.dumps({"match": 1, "game_no": 2})) == 2
    assert [seq for seq, _ in s.since(0, 10)] == [1, 2]
    assert [seq for seq, _ in s.since(1, 10)] == [2]
    assert s.since(0, 1)[0][0] == 1
    again = Store(s.files.restarted())
    again.load()
    assert (again.last_seq, again.last_key) == (2, (1, 2))


def test_a_torn_last_line_is_dropped_and_the_rest_kept():
    s = Store(FakeFlash())
    s.load()
    for g in (1, 2, 3):
        s.append((1, g), json.dumps({"match": 1, "game_no": g}))
    whole = s.files.disk[LOG]
    s.files.disk[LOG] = whole[:-7]  # the power went mid-append
    again = Store(s.files.restarted())
    again.load()
    assert LOG_TORN in again.problems
    assert again.last_seq == 2
    assert [n for n, _ in again.since(0, 9)] == [1, 2]
    assert again.append((1, 3), json.dumps({"match": 1, "game_no": 3})) == 3
    assert [n for n, _ in again.since(0, 9)] == [1, 2, 3]


def test_a_corrupt_line_in_the_middle_is_skipped_not_sent():
    s = Store(FakeFlash())
    s.load()
    for g in (1, 2, 3):
        s.append((1, g), json.dumps({"match": 1, "game_no": g}))
    lines = s.files.disk[LOG].split(b"\n")
    assert lines[2].startswith(b"2 ")  # (after the log's id, and record 1)
    lines[2] = lines[2].replace(b"game_no", b"game_NO")
    s.files.disk[LOG] = b"\n".join(lines)
    assert [n for n, _ in s.since(0, 9)] == [1, 3]


def test_a_log_is_named_when_it_is_made_and_keeps_its_name_until_it_is_gone():
    flash = FakeFlash()
    s = Store(flash)
    s.load()  # a new board: its log begun with its id
    made = s.log_id
    assert len(made) == 16
    assert int(made, 16) >= 0
    assert s.since(0, 9) == []
    assert s.last_seq == 0
    s.append((1, 1), json.dumps({"match": 1, "game_no": 1}))
    s.append((1, 2), json.dumps({"match": 1, "game_no": 2}))
    assert s.log_id == made
    assert [n for n, _ in s.since(0, 9)] == [1, 2]
    again = Store(flash.restarted())
    again.load()
    assert (again.log_id, again.last_seq) == (made, 2)  # kept through a power cut
    flash.disk.pop(STATE, None)  # the state lost: the log, and its name, stand
    lost = Store(flash.restarted())
    lost.load()
    assert lost.log_id == made
    flash.disk.pop(LOG)  # the log deleted by hand (error pattern 4's way out): a new one, a new name
    cleared = Store(flash.restarted())
    cleared.load()
    assert cleared.log_id not in (None, made)
    wiped = Store(FakeFlash())  # a wiped flash (or another board): a new log, a new name
    wiped.load()
    assert wiped.log_id not in (None, made, cleared.log_id)


def test_a_log_made_by_older_firmware_has_no_name_and_still_lists():
    flash = FakeFlash()
    flash.disk[LOG] = seal('1 {"match": 1, "game_no": 1}') + seal('2 {"match": 1, "game_no": 2}')
    s = Store(flash)
    s.load()
    assert (s.log_id, s.last_seq) == (None, 2)
    assert s.append((1, 3), json.dumps({"match": 1, "game_no": 3})) == 3
    assert s.log_id is None
    assert [n for n, _ in s.since(0, 9)] == [1, 2, 3]


def test_a_log_whose_first_line_was_cut_off_is_begun_again_with_a_new_name():
    flash = FakeFlash()
    s = Store(flash)
    s.load()
    first = s.log_id
    flash.disk[LOG] = flash.disk[LOG][:30]  # the power went as the log's first line was written
    again = Store(flash.restarted())
    again.load()
    assert LOG_TORN in again.problems
    assert again.log_id not in (None, first)
    again.append((1, 1), json.dumps({"match": 1, "game_no": 1}))
    assert [n for n, _ in again.since(0, 9)] == [1]
    assert Store(again.files.restarted()).load() is None  # (no state saved in this test)


def test_an_append_that_fails_on_a_log_of_its_id_alone_numbers_nothing_twice():
    flash = FakeFlash()
    s = Store(flash)
    s.load()
    s.last_seq = 2  # (the state's: the log was deleted by hand after records 1 and 2 were synced)
    flash.capacity = sum([len(v) for v in flash.disk.values()]) + 10  # no room for a record
    assert s.append((1, 3), json.dumps({"match": 1, "game_no": 3})) == -1
    assert s.last_seq == 2
    assert FULL in s.problems
    flash.capacity = 1 << 20
    assert s.append((1, 3), json.dumps({"match": 1, "game_no": 3})) == 3


def test_a_full_flash_begins_no_log_and_the_games_go_on_unnamed():
    flash = FakeFlash(capacity=10)
    s = Store(flash)
    s.load()
    assert s.log_id is None
    assert FULL in s.problems
    assert LOG not in flash.disk


def test_a_full_flash_keeps_the_last_good_state():
    flash = FakeFlash(capacity=400)
    s = Store(flash)
    assert s.save({"n": 1})
    assert not s.save({"n": 2, "pad": "x" * 500})
    assert FULL in s.problems
    assert Store(flash.restarted()).load() == {"n": 1}
    assert s.append((1, 1), "x" * 500) == -1
    assert s.save({"n": 3})
    assert FULL not in s.problems


def test_a_torn_log_on_a_full_flash_is_fenced_off_not_fatal():
    s = Store(FakeFlash())
    s.load()
    for g in (1, 2, 3):
        s.append((1, g), json.dumps({"match": 1, "game_no": g}))
    s.files.disk[LOG] = s.files.disk[LOG][:-7]  # torn by a power cut
    flash = s.files.restarted()
    flash.capacity = sum([len(v) for v in flash.disk.values()]) + 4  # no room to copy the log
    again = Store(flash)
    assert again.load() is None  # no exception at boot
    assert LOG_TORN in again.problems
    assert FULL in again.problems
    assert again.last_seq == 2
    assert [n for n, _ in again.since(0, 9)] == [1, 2]
    assert flash.disk[LOG].endswith(b"\n")
    flash.capacity = 1 << 20  # room again: the next game goes on a line of its own
    assert again.append((1, 3), json.dumps({"match": 1, "game_no": 3})) == 3
    assert [n for n, _ in again.since(0, 9)] == [1, 2, 3]


class FatFlash(FakeFlash):
    """A rename that will not replace a file (FAT's); with `failing`, one
    that fails outright (a flash fault)."""

    failing = False

    def rename(self, old, new):
        if self.failing or new in self.disk:
            self.step()
            raise OSError(5 if self.failing else 17, "EIO" if self.failing else "EEXIST")
        FakeFlash.rename(self, old, new)

    def restarted(self):
        return FatFlash(dict(self.disk), capacity=self.capacity)


def test_on_fat_a_rename_that_fails_after_the_old_state_went_keeps_the_new_one():
    flash = FatFlash()
    s = Store(flash)
    assert s.save({"n": 1})
    assert s.save({"n": 2})
    assert sorted(flash.disk) == [STATE]
    flash.failing = True
    assert not s.save({"n": 3})
    assert STATE not in flash.disk
    assert STATE_TMP in flash.disk
    again = flash.restarted()
    assert Store(again).load() == {"n": 3}
    assert sorted(again.disk) == sorted([LOG, STATE])  # taken up as the state: a second cut cannot lose it
    assert Store(again.restarted()).load() == {"n": 3}


def test_a_torn_tmp_beside_no_state_is_dropped():
    flash = FakeFlash()
    flash.disk[STATE_TMP] = b"half a li"
    assert Store(flash).load() is None
    assert sorted(flash.disk) == [LOG]
