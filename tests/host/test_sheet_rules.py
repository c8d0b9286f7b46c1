# The score sheets' rules on their own: no database, no command line, no
# words for the screen. A line applied gives the sheet and a Change; undo
# and fix give a new sheet and keep the old one as it was; one digit parser
# for both sheets.
import pytest
from test_barbu_cli import rubber_lines

from cribboard.sheets import barbu as barbu_sheet
from cribboard.sheets import numbers as digits
from cribboard.sheets import piquet
from cribrules import barbu


def test_one_digit_parser_for_both_sheets():
    assert digits.number("0") == 0
    assert digits.number("045") == 45
    for bad, why in (
        ("x", "not a number"),
        ("1_0", "not a number"),
        ("١٢", "not a number"),
        (" 7", "not a number"),
        ("-3", "0 or more"),
        ("", "not a number"),
    ):
        with pytest.raises(ValueError, match=why):
            digits.number(bad)


def test_a_barbu_line_applied_undone_and_fixed():
    lines = rubber_lines()
    rubber = barbu.Rubber(0, ["A", "B", "C", "D"])
    rubber, change = barbu_sheet.apply(rubber, lines[0])
    assert (change.what, change.deal, change.was) == ("entered", 0, None)
    assert len(rubber.deals) == 1
    rubber, change = barbu_sheet.apply(rubber, lines[1])
    before = rubber
    rubber, change = barbu_sheet.apply(rubber, "undo")
    assert (change.what, change.deal, change.was) == ("removed", 1, before)
    assert len(rubber.deals) == 1
    assert len(before.deals) == 2
    fixed = "queens 0 0 1 3"
    rubber, change = barbu_sheet.apply(rubber, "fix 1 " + fixed)
    assert (change.what, change.deal) == ("fixed", 0)
    assert rubber.deals[0][1] == "queens"
    assert change.was.deals[0][1] != "queens"
    for bad, why in (
        ("undo now", "nothing after it"),
        ("fix 9 " + fixed, "no deal 9"),
        ("fix 1", "fix N DEAL"),
        ("bridge 1", "unknown contract"),
        ("queens 1 1 1", "needs 4 numbers"),
    ):
        with pytest.raises(ValueError, match=why):
            barbu_sheet.apply(rubber, bad)
    assert len(rubber.deals) == 1  # nothing entered by a bad line


def test_a_barbu_rubber_kept_reads_back_the_same():
    rubber = barbu.Rubber(1, ["A", "B", "C", "D"])
    for line in rubber_lines(2)[:9]:
        rubber, _change = barbu_sheet.apply(rubber, line)
    pairs = barbu_sheet.parse_partners("1+3,2+4")
    record = barbu_sheet.record(rubber, ["A", "B", "C", "D"], pairs)
    again, partners = barbu_sheet.from_kept(["A", "B", "C", "D"], record)
    assert again.totals() == rubber.totals()
    assert partners == pairs
    with pytest.raises(ValueError, match="four names"):
        barbu_sheet.from_kept(["A"], record)


def test_a_piquet_line_applied_undone_and_fixed_and_kept():
    sheet = piquet.Sheet(["Ann", "Bob"])
    for line in ("45 12", "30 40"):
        sheet, change = piquet.apply(sheet, line)
    assert (change.what, change.deal) == ("entered", 1)
    assert sheet.deals() == [(45, 12), (30, 40)]
    before = sheet
    sheet, change = piquet.apply(sheet, "fix 1 20 20")
    assert (change.what, change.deal, change.was) == ("fixed", 0, before)
    assert sheet.deals()[0] == (20, 20)
    assert before.deals()[0] == (45, 12)
    sheet, change = piquet.apply(sheet, "undo")
    assert change.what == "removed"
    assert sheet.deals() == [(20, 20)]
    again = piquet.from_kept(["Ann", "Bob"], piquet.kept(sheet))
    assert again.deals() == sheet.deals()
    assert again.game.scores() == sheet.game.scores()
    for bad, why in (("45", "two counts"), ("45 x", "not a number"), ("fix 5 1 1", "no deal 5"), ("undo 2", "after")):
        with pytest.raises(ValueError, match=why):
            piquet.apply(sheet, bad)
    with pytest.raises(ValueError, match="not a sheet"):
        piquet.from_kept(["Ann", "Bob"], {"deals": []})
