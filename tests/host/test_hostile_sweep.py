# Every subcommand, tournament and tables included, fed what a hostile newcomer
# types: each argument and each option's value empty, negative, huge, bytes
# that are no UTF-8, a terminal escape; the command alone; a damaged database
# and one the user may only read; a port with nothing behind it; Ctrl-C while
# it works. Run in this process (a new interpreter a case would take minutes):
# no traceback, an exit status of 0, 1, 2 or 130, and the database unchanged
# unless the command wrote what it was asked to. The long-running commands
# (serve, sim, live, watch) are left to their own tests (test_hostile_inputs.py
# holds their bad values): started here, they would serve.
import hashlib
import os
import shutil
import signal

import click
import pytest
from damage import damage, read_only
from test_golden import evening

from cribboard.cli import base
from cribboard.cli import cli as root
from cribboard.text import i18n

NOT_UTF8 = os.fsdecode(b"\xff\xfe")
HOSTILE = ["", "-1", "9" * 40, NOT_UTF8, "\x1b[2J", "x" * 5000]
RUNNING = {("serve",), ("sim",), ("live",), ("watch",)}  # they serve until stopped
CTRL_C_S = 20  # a case still running after this is interrupted, as a user would (it must end cleanly)


def _leaves(group, path=()):
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from _leaves(command, path + (name,))
        elif path + (name,) not in RUNNING:
            yield path + (name,), command


def _takes(command):
    """The parameters a value is typed for: (the option's name or None for an argument, the parameter)."""
    for p in command.params:
        if isinstance(p, click.Argument):
            yield None, p
        elif isinstance(p, click.Option) and not p.is_flag and not p.count and p.opts[-1].startswith("--"):
            if p.name not in ("db_url", "port"):
                yield p.opts[-1], p


def _cases(path, command):
    """Each argument and option given each hostile value, the rest filled in plainly."""
    arguments = [p for p in command.params if isinstance(p, click.Argument)]

    def filled(hostile_param=None, value=None):
        args = []
        for p in arguments:
            if p is hostile_param:
                args.append(value)
            elif p.required:
                args.append("1")
        return args

    yield []
    for option, p in _takes(command):
        for value in HOSTILE:
            yield filled(p, value) if option is None else filled() + [option, value]


@pytest.fixture(scope="module")
def rooms(tmp_path_factory):
    path = tmp_path_factory.mktemp("sweep")
    db = str(path / "club.db")
    evening(db, path)
    damaged = str(path / "damaged.db")
    shutil.copy(db, damaged)
    damage(damaged)
    kept = str(path / "read-only.db")
    shutil.copy(db, kept)
    with read_only(kept, or_skip=False) as kept:  # (None where it cannot be made: the rest still runs)
        yield path, db, damaged, kept


def _digest(db):
    return hashlib.sha256(open(db, "rb").read()).hexdigest()


class _Interrupted(Exception):
    pass


def _run(argv, capsys):
    """cribboard argv in this process: its exit status and what it said (a traceback escapes as the test's)."""

    def ctrl_c(_signum, _frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, ctrl_c)
    signal.alarm(CTRL_C_S)
    try:
        base.main(argv)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        i18n.use("en")
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("group", sorted({p[0] for p, _c in _leaves(root)}))
def test_every_subcommand_refuses_hostile_input_in_a_line_and_keeps_the_database(group, rooms, capsys, monkeypatch):
    path, db, damaged, kept = rooms
    monkeypatch.setenv("HOME", str(path / "home"))  # no simulated board another test started is found
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(path / "run"))
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.setenv("CRIBBOARD_DB_WAIT", "1")
    monkeypatch.setenv("CRIBBOARD_LINK_WAIT", "1")
    monkeypatch.chdir(path)
    port = str(path / "ttyACM9")  # nothing there
    ran = 0
    for command_path, command in _leaves(root):
        if command_path[0] != group:
            continue
        names = {p.name for p in command.params}
        for args in _cases(command_path, command):
            for where in [w for w in (db, damaged, kept) if w]:
                copy = where if where == kept else str(path / "work.db")  # (a read-only file stays as it is)
                if copy != kept:
                    shutil.copy(where, copy)
                before = _digest(copy)
                argv = [*command_path, *args]
                argv += ["--db", copy] if "db_url" in names else []
                argv += ["--port", port] if "port" in names else []
                code, out, err = _run(argv, capsys)
                ran += 1
                said = (argv[:6], code, err[-400:])
                assert "Traceback" not in err and "Traceback" not in out, said
                assert code in (0, 1, 2, 130), said
                if code:
                    assert err.strip(), said  # a failure says why
                    assert _digest(copy) == before, said  # and changes nothing
                if where == damaged and code == 0:
                    assert _digest(copy) == before, said  # nothing written beside the damage
    assert ran
