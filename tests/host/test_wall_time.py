# Turning a board's ticks into wall time at sync, for a board whose ticks
# wrap at 2**30 (MicroPython) or 2**29 (CircuitPython, as its HELLO says).
from cribboard.intake import wall_time

NOW = 1_800_000_000.0


def test_a_game_of_this_boot_is_dated_back_from_hello_across_the_wrap():
    for period in (1 << 30, 1 << 29):
        hello = {"boot": 3, "ticks": 2000, "period": period}  # the counter wrapped 7 s after the game
        rec = {"boot": 3, "ticks": period - 5000}
        assert wall_time(rec, hello, NOW) == NOW - 7.0


def test_the_period_matters_and_defaults_to_micropythons():
    rec = {"boot": 3, "ticks": (1 << 29) - 5000}
    hello = {"boot": 3, "ticks": 2000}  # an older board: no period, MicroPython's 2**30
    assert wall_time(rec, hello, NOW) is None  # read on 2**30, the game is 6 days ahead: no date
    assert wall_time(dict(rec, ticks=(1 << 30) - 5000), hello, NOW) == NOW - 7.0
    assert wall_time(rec, dict(hello, period=1 << 29), NOW) == NOW - 7.0
    assert wall_time(rec, dict(hello, period=12345), NOW) == wall_time(rec, hello, NOW)  # not a power of two


def test_an_older_boot_uses_the_time_the_board_was_given():
    rec = {"boot": 2, "ticks": 1000, "wall": [int(NOW) - 3600, (1 << 29) - 1000]}
    assert wall_time(rec, {"boot": 3, "ticks": 5, "period": 1 << 29}, NOW) == NOW - 3600 + 2.0
    assert wall_time({"boot": 2, "ticks": 1000}, {"boot": 3, "ticks": 5}, NOW) is None


def test_a_date_no_board_could_mean_is_none_and_no_error():
    # Numbers a lying board (or a forged report) sends: no OverflowError, no year -18,265,288.
    huge = 2**4000
    assert wall_time({"boot": 3, "ticks": huge}, {"boot": 3, "ticks": 5, "period": 1 << 30}, NOW) is None
    assert wall_time({"boot": 3, "ticks": 5}, {"boot": 3, "ticks": huge, "period": huge}, NOW) is None
    assert wall_time({"boot": 3, "ticks": 5}, {"boot": 3, "ticks": 7, "period": huge}, NOW) == NOW - 0.002
    assert wall_time({"boot": 2, "ticks": 5, "wall": [10, 5]}, {"boot": 3, "ticks": 5}, NOW) is None  # 1970
    assert wall_time({"boot": 2, "ticks": 5, "wall": [int(NOW) + 90_000, 5]}, {"boot": 3}, NOW) is None  # ahead
    assert wall_time({"boot": 2, "ticks": 5, "wall": [int(NOW) + 3_600, 5]}, {"boot": 3}, NOW) == NOW + 3_600
    assert wall_time({"boot": 3, "ticks": 5}, {"boot": 3, "ticks": "5"}, NOW) is None
