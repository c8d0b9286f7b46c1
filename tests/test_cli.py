# The calculators on the command line, run as a user runs them.
import json
import subprocess
import sys

from deadline import COMMAND_S


def run(*args, stdin=""):
    proc = subprocess.run(
        [sys.executable, "-m", "cribboard.cli", *args], input=stdin, capture_output=True, text=True, timeout=COMMAND_S
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_score_prints_the_total():
    assert run("score", "6C", "7S", "8D", "8H", "9S") == (0, "16\n", "")
    assert run("score", "5c 5d 5s jh 5h") == (0, "29\n", "")


def test_score_json_and_crib():
    code, out, _ = run("score", "--json", "2H", "4H", "6H", "8H", "TC")
    assert code == 0
    assert json.loads(out) == {"total": 4, "fifteens": 0, "pairs": 0, "runs": 0, "flush": 4, "nobs": 0}
    assert run("score", "--crib", "2H", "4H", "6H", "8H", "TC")[1] == "0\n"


def test_score_verbose_names_what_scored():
    assert run("score", "-v", "6C", "7S", "8D", "8H", "9S")[1] == "15s 6, pairs 2, runs 8 = 16\n"


def test_score_reads_hands_from_stdin_and_reports_bad_lines():
    code, out, err = run("score", "--json", stdin="6C 7S 8D 8H 9S\n# a comment\n\nZZ 5H 5D 5S 5C\n5C 5D 5S JH 5H\n")
    assert code == 2
    assert [json.loads(line)["total"] for line in out.splitlines()] == [16, 29]
    assert err == "cribboard: error: line 4: unknown card 'ZZ' (write rank then suit: 5H, TD, 10D, QS, 5♥)\n"


def test_bad_input_is_one_line_and_exit_2():
    for args in (
        ("score", "5H", "5H", "5D", "5S", "5C"),
        ("score", "5H", "6H"),
        ("score", "--nope"),
        ("peg", "KH", "QH", "JH", "9C"),
        ("peg", "go"),
        ("nope",),
    ):
        code, out, err = run(*args)
        assert code == 2, args
        assert err.startswith("cribboard: error: ") and err.count("\n") == 1, (args, err)
        assert "Traceback" not in err
        assert out == ""


def test_peg_scores_each_card_and_resets_on_go_and_31():
    code, out, _ = run("peg", "--json", "5H", "TD", "5S", "5C", "go", "KC", "QD", "JH", "AS", "9C")
    assert code == 0
    rows = json.loads(out)
    assert [r["points"] for r in rows] == [0, 2, 0, 2, 1, 0, 0, 3, 2, 0]
    assert [r["count"] for r in rows] == [5, 15, 20, 25, 0, 10, 20, 30, 31, 9]


def test_peg_plain_output():
    code, out, _ = run("peg", "7C", "8D")
    assert code == 0
    assert out.splitlines() == ["7C     7  +0", "8D    15  +2  (fifteen 2)"]
