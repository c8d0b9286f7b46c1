# A red run leaves nothing running: a test that fails after starting a
# simulated board (`cribboard sim`, whose board process is its child) and a
# process of its own session (as a daemon is) has them killed at the end of
# its run, and named (tests/leftovers.py).
import json
import os
import subprocess
import sys
from pathlib import Path

from deadline import WAIT_S
from test_sim_processes import ends

TESTS = Path(__file__).resolve().parents[1]

RED = """
import json, subprocess, sys
from pathlib import Path

def test_red(tmp_path):
    sim = subprocess.Popen([sys.executable, "-m", "cribboard", "sim", "--headless", "--json", "--http",
                            "127.0.0.1:0", "--flash", str(tmp_path / "flash")], stdout=subprocess.PIPE, text=True)
    json.loads(sim.stdout.readline())  # the board runs
    board = [int(w) for t in Path("/proc/%d/task" % sim.pid).iterdir() for w in (t / "children").read_text().split()]
    daemon = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"], start_new_session=True)
    Path("PIDS").write_text(json.dumps([sim.pid, daemon.pid] + board))
    assert False, "this test fails, and stops nothing it started"
"""


def test_a_failing_test_leaves_nothing_running(tmp_path):
    (tmp_path / "test_red.py").write_text(RED)
    (tmp_path / "conftest.py").write_text((TESTS / "conftest.py").read_text())
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), "test_red.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=WAIT_S * 5,
    )
    assert done.returncode == 1 and "1 failed" in done.stdout, done.stdout + done.stderr
    pids = json.loads((tmp_path / "PIDS").read_text())
    assert len(pids) == 3  # the simulator, the daemon-like process and the simulator's board process
    for pid in pids:
        assert ends(pid, WAIT_S), pid
    assert "leftovers: the tests left" in done.stderr and "cribboard sim" in done.stderr, done.stderr
