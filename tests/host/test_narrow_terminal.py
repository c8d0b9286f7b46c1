# Tables on a terminal of 80, 100 and 160 columns, in a real pseudo-terminal
# of that size: every line fits, and every header and value of the table
# (as a pipe gets it, at full width) is on the screen whole, never cut or
# wrapped. Too wide, the columns go in blocks led by the row's first column.
import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios

import pytest
from clirun import ENGLISH, cli
from deadline import COMMAND_S
from rich.cells import cell_len
from test_golden import evening

_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_RULE = "┃│"
_BOX = "┏┃┡│└"


def on_terminal(columns, *args):
    """What the command prints on a terminal `columns` wide (escapes removed)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {**os.environ, **ENGLISH, "COLUMNS": str(columns), "TERM": "xterm"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cribboard", *args],
        stdout=slave,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    os.close(slave)
    out = b""
    try:
        while True:
            ready, _w, _x = select.select([master], [], [], COMMAND_S)
            if not ready:
                raise AssertionError("no output within %d s" % COMMAND_S)
            try:
                data = os.read(master, 65536)
            except OSError:  # the command ended: its side of the terminal is closed
                break
            if not data:
                break
            out += data
    finally:
        os.close(master)
        proc.wait(COMMAND_S)
    return _ESCAPE.sub("", out.decode()).replace("\r\n", "\n")


def cells(text):
    """The table cells' texts in a rendering: what lies between its rules, stripped."""
    return {
        c.strip()
        for line in text.splitlines()
        if line[:1] in _RULE
        for c in re.split("[%s]" % _RULE, line)[1:-1]
        if c.strip()
    }


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    path = tmp_path_factory.mktemp("club")
    db = str(path / "club.db")
    evening(db, path)
    return db


@pytest.mark.parametrize("command", [["matches"], ["stats"], ["standings"]])
def test_every_header_and_value_is_whole_at_80_100_and_160_columns(club, command):
    wide = cli(*command, "--db", club).stdout  # a pipe: the full width
    whole = cells(wide)
    assert max(cell_len(line) for line in wide.splitlines()) > 80  # too wide for the narrowest terminal
    for columns in (80, 100, 160):
        shown = on_terminal(columns, *command, "--db", club)
        table = [line for line in shown.splitlines() if line[:1] in _BOX]  # (prose wraps as a terminal wraps it)
        assert max(cell_len(line) for line in table) <= columns, (columns, shown)
        assert cells(shown) >= whole, (columns, sorted(whole - cells(shown)))  # none cut, none wrapped
        assert max(cell_len(line) for line in shown.splitlines()) <= columns, (columns, shown)  # the notes too
        heads = [line for line in shown.splitlines() if line.startswith("┃")]
        if command == ["standings"]:  # each block led by the rank and the player's name
            assert heads and all(re.match(r"┃ *rank *┃ *player *┃", h) for h in heads), heads


def test_the_notes_under_a_table_fit_80_columns_in_every_language(club):
    for lang in ("en", "es", "it", "de"):
        shown = on_terminal(80, "--lang", lang, "stats", "--db", club)
        assert max(cell_len(line) for line in shown.splitlines()) <= 80, (lang, shown)


@pytest.mark.parametrize("lang", ["en", "de", "es", "it"])
def test_what_is_said_beside_a_table_and_the_help_fit_80_columns_in_every_language(lang, tmp_path):
    db = ["--db", str(tmp_path / "t.db")]
    assert cli("night", "new", "Ann", "Bob", "Cy", "Di", *db).returncode == 0
    said = cli("--lang", lang, "night", "standings", *db)
    assert said.returncode == 0, said.stderr
    assert said.stderr.strip(), "the standings say how they are ranked"
    helped = cli("--lang", lang, "--help")
    for line in said.stderr.splitlines() + helped.stdout.splitlines():
        assert cell_len(line) <= 80, (lang, line)


def test_a_folded_bracket_keeps_each_matchs_round_and_number_in_every_block(tmp_path):
    from test_tournament_paper import qualified

    db, _t = qualified(tmp_path, 24)
    db.close()
    shown = on_terminal(50, "--lang", "es", "tournament", "bracket", "--db", str(tmp_path / "t.sqlite3"))
    heads = [
        [c.strip() for c in re.split("[%s]" % _RULE, line)[1:-1]]
        for line in shown.splitlines()
        if line[:1] in _RULE and "ronda" in line
    ]
    assert len(heads) >= 2, shown  # folded: more than one block
    assert all(head[:2] == heads[0][:2] for head in heads), shown  # each block's rows say round and match
    assert heads[0][1] != "mesa", shown  # (the match's number, then the table)
