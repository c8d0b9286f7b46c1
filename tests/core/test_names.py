# Player names: the one rule the board and the host both apply.
from cribcore.names import MAX_NAME, check_names, default_name, name_problem

from check import raises


def test_good_names_pass_unicode_included():
    for name in ("Ann", "José María", "Zoë & Bo", "陈", "x" * MAX_NAME, "O'Brien-Smith", "Team 3"):
        assert name_problem(name) is None, name


def test_bad_names_say_why():
    def why(name):
        return str(name_problem(name))  # a CoreError, not raised: English when made a string

    assert "too long" in why("x" * (MAX_NAME + 1))
    assert "empty" in why("")
    assert "empty" in why("   ")
    assert "either end" in why(" Ann")
    assert "either end" in why("Ann ")
    for bad in (
        "A\nB",
        "A\tB",
        "A\x1b]0;pwned\x07",
        "A\x7fB",
        "A\x85B",
        "A\u2028B",
        "A\u202eB",
        "A\u2066B",
        "\ufeffAnn",
    ):
        assert "control" in why(bad), repr(bad)
    assert why("A\x1bB") == "no control characters (U+001B)"
    assert "text" in why(5)
    assert "text" in why(None)


def test_a_match_needs_one_good_name_a_track():
    assert check_names(["Ann", "Bob"], 2) == ["Ann", "Bob"]
    assert "3 names" in raises(ValueError, check_names, ["Ann", "Bob"], 3)
    assert "3 names" in raises(ValueError, check_names, "Ann", 3)
    assert raises(ValueError, check_names, ["Ann", "B\x00b"], 2).startswith("name 2: no control")
    assert [default_name(t) for t in range(3)] == ["Track 1", "Track 2", "Track 3"]
