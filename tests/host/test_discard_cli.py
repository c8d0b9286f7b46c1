# `cribboard discard`: the ranked throws as a player reads them and as a
# program reads them, whose crib, and bad input.
import json
from fractions import Fraction

from clirun import cli, one_line_error

HAND = ("5H", "5S", "JD", "4C", "6H", "KH")


def throws(*args):
    done = cli("discard", "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_throw_is_ranked_by_net_and_equal_nets_share_a_rank():
    out = throws("--dealer", *HAND)
    rows = out["throws"]
    assert len(rows) == 15
    assert out["players"] == 2
    assert out["crib"] == "dealer"
    nets = [Fraction(r["net"]["exact"]) for r in rows]
    assert nets == sorted(nets, reverse=True)
    for i, r in enumerate(rows):  # competition ranking: 1, 2, 3, 3, 5 ...
        assert r["rank"] == 1 + sum(1 for n in nets if n > nets[i])
    assert rows[2]["rank"] == rows[3]["rank"] == 3  # 5H JD and 5S JD: the same by symmetry
    best = rows[0]
    assert (best["throw"], best["keep"]) == (["JD", "KH"], ["5H", "5S", "4C", "6H"])
    assert best["hand"]["total"] == {"exact": "367/23", "value": 367 / 23}
    for part in ("hand", "crib"):  # the kinds add up to the total, exactly
        kinds = sum(Fraction(best[part][k]["exact"]) for k in ("fifteens", "pairs", "runs", "flush", "nobs"))
        assert kinds == Fraction(best[part]["total"]["exact"])
    assert Fraction(best["net"]["exact"]) == Fraction(best["hand"]["total"]["exact"]) + Fraction(
        best["crib"]["total"]["exact"]
    )
    assert "Pegging and the board position are not counted" in out["model"]


def test_whose_crib_turns_the_crib_from_plus_to_minus():
    own = {tuple(r["throw"]): r for r in throws("--dealer", *HAND)["throws"]}
    theirs = throws("--pone", *HAND)["throws"]
    for r in theirs:
        mine = own[tuple(r["throw"])]
        crib = Fraction(r["crib"]["total"]["exact"])
        assert Fraction(mine["net"]["exact"]) - Fraction(r["net"]["exact"]) == 2 * crib
    nets = [Fraction(r["net"]["exact"]) for r in theirs]
    assert nets == sorted(nets, reverse=True)
    assert [r["throw"] for r in theirs].index(["5H", "5S"]) == 14  # a pair of 5s in their crib: the worst throw


def test_the_table_the_top_the_fractions_and_the_kinds():
    done = cli("discard", "--dealer", "--top", "3", *HAND)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["rank", "throw", "keep", "E[hand]", "E[crib]", "net"]
    assert lines[1].split()[:7] == ["1", "JD", "KH", "5H", "5S", "4C", "6H"]
    assert lines[1].split()[7] == "15.96"
    assert lines[4].startswith("model: 2 players, your crib")
    assert lines[-1].endswith("are not counted.")
    exact = cli("discard", "--dealer", "--exact", "-v", *HAND).stdout.splitlines()
    assert max(len(line) for line in lines + exact) <= 80  # a terminal's width, the fractions too
    exact = exact[:4]
    assert "367/23" in exact[1]
    assert exact[2].split(":")[0].strip() == "hand"
    assert exact[2].strip() == "hand: 15s 144/23, pairs 56/23, runs 167/23, flush 0, nobs 0"
    assert exact[3].strip().startswith("crib: 15s ")
    assert "nobs 301/1035" in exact[3]


def test_three_and_four_players_throw_one_card():
    out = throws("--pone", "--players", "3", "5H", "5S", "JD", "4C", "6H")
    assert len(out["throws"]) == 5
    assert all(len(r["throw"]) == 1 for r in out["throws"])
    assert "47 unseen" in out["model"]
    four = throws("--partner-deals", "--players", "4", "5H", "5S", "JD", "4C", "6H")
    assert four["crib"] == "partner"
    assert four["throws"][0]["throw"] == ["JD"]


def test_whose_crib_must_be_said_once_and_bad_cards_are_one_line():
    for args, why in (
        ((), "say whose crib it is"),
        (("--dealer", "--pone"), "not --dealer --pone"),
        (("--partner-deals",), "needs --players 4"),
        (("--dealer", "--players", "3"), "give 5, not 6"),
    ):
        assert why in one_line_error(cli("discard", *args, *HAND), 2)
    assert "duplicate" in one_line_error(cli("discard", "--dealer", "5H", "5H", "JD", "4C", "6H", "KH"), 2)
    assert "give 6, not 5" in one_line_error(cli("discard", "--dealer", "5H", "JD", "4C", "6H", "KH"), 2)
    assert "ZZ" in one_line_error(cli("discard", "--dealer", "ZZ", "5S", "JD", "4C", "6H", "KH"), 2)


def test_hands_on_stdin_one_a_line_a_bad_line_reported_and_the_rest_answered():
    lines = ["# Tuesday's deals", " ".join(HAND), "", "5H 5H JD 4C 6H KH", "AS 2S 3S 4S 5S 6S"]
    done = cli("discard", "--dealer", "--json", "--top", "1", stdin="\n".join(lines) + "\n")
    assert done.returncode == 2
    answered = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["cards"] for a in answered] == [list(HAND), ["AS", "2S", "3S", "4S", "5S", "6S"]]
    assert done.stderr.strip() == "cribboard: error: line 4: duplicate card 5H"
    text = cli("discard", "--dealer", "--top", "1", stdin=" ".join(HAND) + "\n").stdout
    assert text.startswith("hand: 5H 5S JD 4C 6H KH\nrank")
