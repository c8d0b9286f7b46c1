# What a newcomer sees of `make run` and `make test`'s set-up: one line a
# step, a step's own output only when it fails (tools/quietly), so the
# board's address comes within a screenful.
import os
import re
import subprocess
from pathlib import Path

from deadline import COMMAND_S

ROOT = Path(__file__).resolve().parent.parent
QUIETLY = ROOT / "tools" / "quietly"


def quietly(*cmd):
    return subprocess.run(["sh", str(QUIETLY), "a step", *cmd], capture_output=True, text=True, timeout=COMMAND_S)


def test_a_step_that_works_says_one_line():
    done = quietly("sh", "-c", "echo lots; echo of noise >&2")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "a step\n")


def test_a_step_that_fails_shows_all_it_said_and_its_status():
    done = quietly("sh", "-c", "echo what went before; echo the error >&2; exit 3")
    assert done.returncode == 3
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "a step",
        "what went before",
        "the error",
        "failed (exit 3): sh -c echo what went before; echo the error >&2; exit 3",
    ]


def test_a_long_step_says_it_is_still_at_it_until_it_ends():
    """A line every CRIBBOARD_SETUP_BEAT seconds (10 for a user), so a first pip install that takes minutes
    never looks like a hang; nothing of its ticker is left once it ends."""
    done = subprocess.run(
        ["sh", str(QUIETLY), "a step", "sh", "-c", "sleep 2.5; echo noise"],
        capture_output=True,
        text=True,
        timeout=COMMAND_S,
        env={**os.environ, "CRIBBOARD_SETUP_BEAT": "1"},
    )
    lines = done.stderr.splitlines()
    assert done.returncode == 0 and lines[0] == "a step" and len(lines) >= 2, done.stderr
    assert all(re.fullmatch(r"a step \(\d+ s\)", line) for line in lines[1:]), done.stderr


def recipes(target):
    """The recipe lines of a Makefile rule whose target starts with `target`."""
    lines, out, inside = (ROOT / "Makefile").read_text().splitlines(), [], False
    for line in lines:
        if re.match(r"^\S.*:", line) and not line.startswith("\t"):
            inside = line.startswith(target)
        elif inside and line.startswith("\t"):
            out.append(line)
    return out


def test_the_set_up_steps_and_run_echo_no_command():
    for target in (
        "$(RUN_DONE)",
        "$(VENV_DONE)",
        "$(NODE_DONE)",
        "$(STUBS_DONE)",
        "$(CP_STUBS_DONE)",
        "$(MO_FILES)",
        "run:",
    ):
        steps = recipes(target)
        assert steps, target
        starts = [s for s in steps if not s.startswith("\t\t")]  # a recipe line, not its continuation
        assert all(s.startswith("\t@") for s in starts), (target, starts)
