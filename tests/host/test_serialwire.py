# The serial link's numbers and words are one module's (cribcore.serialwire), which
# both ends import; the one place that cannot import it (the log's recovery
# at power-up, before any host speaks) is held to it here.
import pytest

from cribapp import link, recovery
from cribboard.link import client
from cribcore import serialwire


def test_the_board_and_the_host_take_the_links_numbers_from_one_module():
    assert link.wire is serialwire  # (the board looks its numbers and words up there)
    assert client.PROTOCOLS[-1] == serialwire.PROTOCOL  # the host speaks up to the board's newest
    assert client.BoardLink.records.__defaults__ == (serialwire.LIST_LIMIT,)


def test_the_longest_line_the_recovery_keeps_is_a_whole_reply_sealed():
    assert recovery._MAX_LINE == serialwire.MAX_REPLY + 64


@pytest.mark.parametrize("name", ["PROTOCOL", "MAX_LINE", "MAX_REPLY", "LIST_LIMIT"])
def test_no_other_module_of_the_board_or_host_sets_a_link_number_of_its_own(name):
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    setting = "%s = " % name
    found = [
        str(p.relative_to(root))
        for folder in ("firmware/lib", "host/cribboard")
        for p in (root / folder).rglob("*.py")
        if any(line.lstrip().startswith(setting) for line in p.read_text(encoding="utf-8").splitlines())
    ]
    assert found == ["firmware/lib/cribcore/serialwire.py"]
