# `cribboard piquet deal`: one deal scored from the cards and the tricks, in
# the table's words and as JSON.
import json

from clirun import cli

STRONG = "AS KS QS JS TS AH KH QH AD KD AC KC"
WEAK = "9S 8S 7S JH TH 9H 8H QD JD TD QC JC"


def test_a_deal_is_declared_in_the_tables_order_and_scored():
    done = cli("piquet", "deal", "--elder", STRONG, "--younger", WEAK, "--tricks", "E" * 12)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines[:3]] == ["point", "sequence", "set"]
    assert lines[1] == "sequence elder quint to the ace, younger quart to the jack; good: elder scores 18"
    assert "repique  elder: 60" in lines
    assert "capot    elder: 40" in lines
    assert lines[-1] == "total    elder 164, younger 0"
    swapped = json.loads(
        cli("piquet", "deal", "--elder", WEAK, "--younger", STRONG, "--tricks", "Y" * 12, "--json").stdout
    )
    assert [d["verdict"] for d in swapped["declarations"]] == ["not good", "not good", "not good"]
    assert swapped["scores"][1] > 0
    assert swapped["tricks_won"] == [0, 12]
    # The JSON is data, the same in every language: counts and ranks, not the table's phrases.
    sequence = swapped["declarations"][1]
    assert sequence["elder"] == {"length": 4, "high": "J"}
    assert sequence["younger"] == {"length": 5, "high": "A"}
    assert swapped["declarations"][2]["younger"] == {"size": 4, "rank": "A"}


def test_carte_blanche_counts_the_cards_dealt():
    held = "AS TS 9S 8S KS AH TH 9H 8H 7H AD AC"
    args = (
        "piquet",
        "deal",
        "--elder",
        held,
        "--younger",
        "KH QH JH QS JS KD QD JD KC QC JC 9C",
        "--tricks",
        "Y" * 12,
        "--json",
    )
    dealt = json.loads(cli(*args, "--elder-dealt", "AS TS 9S 8S 7S AH TH 9H 8H 7H AD AC").stdout)
    plain = json.loads(cli(*args).stdout)
    assert dealt["blanche"] == [10, 0]
    assert dealt["repique"] == [60, 0]
    assert plain["blanche"] == [0, 0]
    assert dealt["scores"][0] == plain["scores"][0] + 70


def test_younger_may_take_five_cards_after_elder_took_one():
    # Dealt: elder the spades, hearts and two diamonds; younger the rest but the clubs, the talon.
    elder_dealt, younger_dealt = "AS KS QS JS TS AH KH QH JH TH AD KD", "9S 8S 7S 9H 8H 7H QD JD TD 9D 8D 7D"
    elder = "AS KS QS JS TS AH KH QH JH TH AD AC"  # KD out, the ace of clubs in
    younger = "KC QC JC TC 9C 7H QD JD TD 9D 8D 7D"  # five of the talon's clubs for 9S 8S 7S 9H 8H
    args = (
        "piquet",
        "deal",
        "--elder",
        elder,
        "--younger",
        younger,
        "--tricks",
        "E" * 12,
        "--elder-dealt",
        elder_dealt,
        "--younger-dealt",
        younger_dealt,
        "--json",
    )
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"][0] > 0
    # Elder must exchange at least one card: one line, exit 2, in the reader's language too.
    kept = (
        "piquet",
        "deal",
        "--elder",
        elder_dealt,
        "--younger",
        younger,
        "--tricks",
        "E" * 12,
        "--elder-dealt",
        elder_dealt,
        "--younger-dealt",
        younger_dealt,
    )
    said = cli(*kept)
    assert said.returncode == 2 and "elder exchanges 1 to 5 cards; his hand shows 0" in said.stderr, said.stderr
    assert "Traceback" not in said.stderr
    assert len(said.stderr.strip().splitlines()) <= 2
    german = cli("--lang", "de", *kept)
    assert german.returncode == 2 and "die Vorhand tauscht 1 bis 5 Karten" in german.stderr, german.stderr


def test_bad_cards_or_tricks_are_one_line_and_exit_2():
    for extra, why in ((("--tricks", "EEE"), "12 letters"), (("--tricks", "E" * 11 + "X"), "12 letters")):
        done = cli("piquet", "deal", "--elder", STRONG, "--younger", WEAK, *extra)
        assert done.returncode == 2
        assert why in done.stderr
        assert len(done.stderr.splitlines()) == 1
    done = cli(
        "piquet", "deal", "--elder", STRONG, "--younger", "9S 8S 7S JH TH 9H 8H QD JD TD QC 2C", "--tricks", "E" * 12
    )
    assert done.returncode == 2
    assert "not in a piquet deck" in done.stderr
    done = cli("piquet", "deal", "--elder", STRONG, "--younger", STRONG, "--tricks", "E" * 12)
    assert done.returncode == 2
    assert "duplicate" in done.stderr
    assert "Traceback" not in done.stderr
