# `cribboard sim` leaves nothing running behind it, whatever ends it: Ctrl-C,
# a kill, a closed terminal, or SIGKILL (then its board notices the
# simulator is gone and ends itself). Each runtime's board process is
# checked: MicroPython's unix port, the CPython stand-in, CircuitPython's.
import json
import os
import select
import signal
import subprocess
from pathlib import Path

import pytest
from clirun import cli, headless_sim
from deadline import COMMAND_S, WAIT_S

RUNTIMES = (("micropython", {}), ("cpython", {"CRIBBOARD_SIM_RUNTIME": "cpython"}), ("circuitpython", {}))


def start(tmp_path, runtime, env):
    cmd = headless_sim(tmp_path / "flash", *(["--runtime", "circuitpython"] if runtime == "circuitpython" else []))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, **env))
    line = proc.stdout.readline()
    assert line, proc.stderr.read()
    info = json.loads(line)
    (board,) = children(proc.pid)
    return proc, board, info


def children(pid):
    """The processes pid started (Linux's /proc)."""
    out = []
    for task in Path("/proc/%d/task" % pid).iterdir():
        out += [int(w) for w in (task / "children").read_text().split()]
    return out


def ends(pid, seconds):
    """True once process pid has ended (waited for as an event: a pidfd)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], seconds)[0])
    finally:
        os.close(fd)


@pytest.mark.parametrize("runtime,env", RUNTIMES, ids=[r for r, _ in RUNTIMES])
def test_every_signal_stops_the_simulator_and_its_board(tmp_path, runtime, env):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        proc, board, info = start(tmp_path, runtime, env)
        try:
            assert info["runtime"] == runtime
            assert Path(info["log"]).exists()
            proc.send_signal(sig)
            assert proc.wait(WAIT_S) == 0, (sig, proc.stderr.read())
            assert ends(board, WAIT_S), (runtime, sig)
        finally:
            proc.kill()  # (nothing, once it has stopped as it should)
            proc.wait()


@pytest.mark.parametrize("runtime,env", RUNTIMES, ids=[r for r, _ in RUNTIMES])
def test_a_board_whose_simulator_is_killed_ends_itself(tmp_path, runtime, env):
    proc, board, _ = start(tmp_path, runtime, env)
    proc.kill()  # SIGKILL: the simulator cannot stop anything
    proc.wait(WAIT_S)
    assert ends(board, WAIT_S), runtime  # the board saw its hardware link close
    log = (tmp_path / "flash.log").read_text()
    assert "Traceback" not in log, log


def test_an_address_that_cannot_be_served_is_one_line_and_starts_no_board(tmp_path):
    done = subprocess.run(
        headless_sim(tmp_path / "flash", http="192.0.2.1:8121", as_json=False),
        capture_output=True,
        text=True,
        timeout=COMMAND_S,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "cannot serve the board's page on 192.0.2.1:8121" in done.stderr
    assert not (tmp_path / "flash.log").exists()  # the board never started


def test_a_flash_folder_in_use_is_refused_naming_its_simulator_and_a_kill_frees_it(tmp_path):
    from clirun import one_line_error

    proc, _board, _info = start(tmp_path, "micropython", {})
    try:
        second = cli("sim", "--headless", "--http", "127.0.0.1:0", "--flash", str(tmp_path / "flash"))
        line = one_line_error(second)
        assert "in use by another simulated board (process %d)" % proc.pid in line, line
        assert (tmp_path / "flash" / "main.py").exists()  # the first one's files untouched
    finally:
        proc.kill()  # SIGKILL: no clean-up runs, the lock goes with the process
        proc.wait(WAIT_S)
    again, _board, _info = start(tmp_path, "micropython", {})
    again.send_signal(signal.SIGINT)
    assert again.wait(WAIT_S) == 0


def test_a_pin_map_or_layout_asked_for_an_existing_flash_must_be_the_one_it_has(tmp_path):
    from clirun import one_line_error

    proc, _board, _info = start(tmp_path, "micropython", {})  # a pico, 2-track flash
    proc.send_signal(signal.SIGINT)
    assert proc.wait(WAIT_S) == 0
    flash = str(tmp_path / "flash")
    for args, why in (
        (("--board", "nope"), "no pin map 'nope'"),
        (("--layout", "9-track"), "no LED layout"),
        (("--board", "feather_rp2040"), "already has its own board.json, not --board feather_rp2040"),
        (("--layout", "3-track"), "already has its own layout.json"),
    ):
        line = one_line_error(
            cli("sim", "--headless", "--http", "127.0.0.1:0", "--flash", flash, *args), 2 if "no " in why else 1
        )
        assert why in line, (args, line)


def test_the_readmes_sample_of_make_run_is_what_the_simulator_prints(tmp_path):
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    sample = readme.split("every 10 s while one runs, then the board:\n\n```\n", 1)[1]
    sample = sample.split("```", 1)[0].splitlines()
    proc = subprocess.Popen(
        headless_sim(tmp_path / "flash", as_json=False),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        printed = [proc.stdout.readline().rstrip("\n") for _line in sample[:-1]]
        printed.append(proc.stderr.readline().rstrip("\n"))  # (progress: stderr)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=WAIT_S)

    def shape(line):  # what stays from one machine to another: the words before a path or an address
        return line.split(" /")[0].split(" ~")[0].split(" http")[0]

    assert [shape(line) for line in printed] == [shape(line) for line in sample], printed


def test_a_command_with_no_port_finds_the_one_simulated_board_and_says_so(tmp_path):
    from clirun import one_line_error

    first, _board, info = start(tmp_path / "a", "micropython", {})
    second = None
    try:
        done = cli("players", "Ann", "Bob")  # no --port, no board plugged in: the simulated one
        assert done.returncode == 0, done.stderr
        assert "the board on %s: the simulated board of %s" % (info["port"], info["flash"]) in done.stderr
        second, _board2, info2 = start(tmp_path / "b", "micropython", {})
        line = one_line_error(cli("sync", "--db", str(tmp_path / "g.db")), code=2)
        assert "more than one board" in line and info["port"] in line and info2["port"] in line, line
        first.kill()  # its announcement stays behind, held by nobody
        first.wait(WAIT_S)
        done = cli("sync", "--db", str(tmp_path / "g.db"))
        assert done.returncode == 0 and "the board on %s" % info2["port"] in done.stderr, done.stderr
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                proc.communicate(timeout=WAIT_S)
