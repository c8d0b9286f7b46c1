# Command-line conventions: exit status 0/1/2, data on stdout and status on
# stderr, tables whole in a pipe, every environment variable in --help, and
# a tool that still imports and helps where POSIX-only modules are missing.
import json
import re
import subprocess
import sys
from pathlib import Path

from cribboard import records, store
from cribcore.match import Match
from cribcore.record import game_record

HOST = Path(__file__).resolve().parents[2] / "host" / "cribboard"

# Runs the command with some modules made unimportable, as on a machine that lacks them.
BLOCK = """
import sys
blocked = set(sys.argv[1].split(","))
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ImportError("no module named %r here" % name)
sys.meta_path.insert(0, Block())
"""
BLOCKED = (
    BLOCK
    + """
sys.argv = ["cribboard"] + sys.argv[2:]
from cribboard.cli import main
main()
"""
)
# Each command's --help, in one such interpreter (each command's modules imported as its help asks for them):
# for each, its exit status and whether it printed a usage.
EVERY_HELP = (
    BLOCK
    + """
import contextlib, io, json
from cribboard.cli import main
for args in json.loads(sys.argv[2]):
    shown = io.StringIO()
    try:
        with contextlib.redirect_stdout(shown):
            main(args + ["--help"])
        code = 0
    except SystemExit as e:
        code = e.code
    print(json.dumps([args, code, "Usage: cribboard" in shown.getvalue()]))
"""
)


def run(*args, blocked=None, env=None, cwd=None):
    cmd = [sys.executable, "-c", BLOCKED, ",".join(blocked)] if blocked else [sys.executable, "-m", "cribboard"]
    return subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=120, env=env, cwd=cwd)


def subcommands():
    from cribboard.cli import cli

    out = []
    for name, cmd in cli.commands.items():
        out.append([name])
        for sub in getattr(cmd, "commands", {}):
            out.append([name, sub])
    return out


def test_every_environment_variable_the_tool_reads_is_in_help():
    read = set()
    for path in HOST.rglob("*.py"):
        if path.parent.name != "mp":  # the simulated board's own side, run by MicroPython
            read.update(re.findall(r"CRIBBOARD_[A-Z_]+", path.read_text()))
    assert {"CRIBBOARD_PORT", "CRIBBOARD_DB", "CRIBBOARD_HOME", "CRIBBOARD_SIM_RUNTIME"} <= read
    shown = run("--help").stdout
    for name in read | {"NO_COLOR"}:
        assert name in shown, name
    assert "Exit status: 0 done, 1 failed" in " ".join(shown.split())


def test_python_dash_m_and_every_subcommand_help_work_without_posix_only_modules():
    posix_only = ["tty", "termios", "pty", "fcntl", "serial"]
    done = run("--help", blocked=posix_only)
    assert done.returncode == 0 and "Usage: cribboard" in done.stdout, done.stderr
    every = [[]] + subcommands()
    done = subprocess.run(
        [sys.executable, "-c", EVERY_HELP, ",".join(posix_only), json.dumps(every)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    helped = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and [args for args, _code, _usage in helped] == every, done.stderr
    assert all(code in (0, None) and usage for _args, code, usage in helped), (helped, done.stderr)
    done = run("score", "5H", "5D", "5S", "JC", "5C", blocked=posix_only)
    assert (done.returncode, done.stdout) == (0, "29\n")


def test_the_hardware_docs_are_written_without_posix_only_modules(tmp_path):
    done = run(
        "hardware", "docs", "--out", str(tmp_path / "hw"), "--json", blocked=["tty", "termios", "pty"], cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    written = json.loads(done.stdout)
    assert str(tmp_path / "hw" / "bom.md") in written
    assert (tmp_path / "hw" / "drawings").is_dir()


def test_exit_status_two_for_bad_usage():
    assert run("no-such-command").returncode == 2
    assert run("score", "--no-such-option").returncode == 2
    assert run("sim", "--http", "nowhere").returncode == 2
    done = run("hardware", "docs", env={"PATH": "/usr/bin:/bin"})  # no --out and no checkout to write into
    assert done.returncode == 2
    assert done.stderr == "cribboard: error: say where to write them: --out FOLDER\n"


def test_plot_without_matplotlib_says_which_extra_to_install(tmp_path):
    done = run("plot", "1", "-o", str(tmp_path / "x.png"), "--db", str(tmp_path / "d.sqlite3"), blocked=["matplotlib"])
    assert done.returncode == 1
    assert done.stderr == 'cribboard: error: plotting needs matplotlib: pip install "cribboard[plot]"\n'


def test_tables_are_whole_in_a_pipe(tmp_path):
    conn = store.connect(str(tmp_path / "d.sqlite3"))
    m = Match()
    while not m.game.over():
        m.game.add(0, 29, "points", 10)
    rec = game_record(m, 0)
    board = "b0ard-with-a-long-name-" + "x" * 60
    rec.update({"match": 1, "game_no": 1, "board": board, "boot": 1, "ticks": 40, "wall": None, "firmware": "t"})
    assert store.games.add(conn, board, "t", [(1, records.check(json.dumps(rec)))], "now", {1: None}) == 1
    conn.close()
    done = run("matches", "--db", str(tmp_path / "d.sqlite3"))
    assert done.returncode == 0
    assert done.stderr == ""
    assert board in done.stdout
    assert "…" not in done.stdout
    assert len(max(done.stdout.splitlines(), key=len)) > 120  # wider than any terminal default
    listed = json.loads(run("matches", "--json", "--db", str(tmp_path / "d.sqlite3")).stdout)
    assert listed[0]["board"] == board
