# Every `cribboard` command in README.md and docs/*.md, read from their ```sh
# blocks and run in the order printed, on a fresh machine (an empty HOME, no
# database, nothing in a runtime folder) with one simulated board. What is
# this machine's own is put in for the docs' stand-ins: the simulated board's
# id for `3f2a` and `BOARD`, the test's PostgreSQL database for the club's,
# the club's server's address, the ids of games the night flagged for `812`,
# and, in a night's results, the pair the (random) draw made for the names
# printed (in a tournament's playoffs, a match's pair; before its cut, the
# qualifying games no one entered, and who goes through if equal at the
# line). Each command must end well: exit status 0, no traceback, unless the
# table below says why the docs' command rightly refuses here.
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from deadline import COMMAND_S, WAIT_S

from cribboard import store

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BIN = Path(sys.executable).parent  # the cribboard command the checkout installed

# Commands that run until stopped: started and seen to be ready (a line of theirs); the board and the
# club's server are left running for the commands after them, as a user leaves them in another terminal,
# and stopped with Ctrl-C at the end; a viewer (watch, live) is stopped once it shows (it holds the port).
LONG = ("sim", "serve", "watch", "live")
VIEWERS = ("watch", "live")

# Commands of the docs that rightly refuse on this machine, and what they say.
REFUSED = {
    "cribboard flash --drive": (1, "no CIRCUITPY drive"),  # a CircuitPython board's drive: none is mounted here
    "cribboard rejected take 12": (1, "no record kept apart has the id 12"),  # nothing was kept apart here
    "cribboard night end": (2, "games not in"),  # the docs' night plays a few of its games here, not all
    "cribboard tournament end": (2, "matches not won"),  # and its playoffs a few of their matches
}


def commands(doc):
    """The `cribboard` commands of a document's ```sh blocks, a continued line joined, in order."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", doc.read_text(), re.S):
        line = ""
        for raw in block.splitlines():
            line += raw.rstrip()
            if line.endswith("\\"):
                line = line[:-1] + " "
                continue
            if line.strip().startswith("cribboard"):
                out.append(re.sub(r"\s+#\s.*$", "", line.strip()))  # (its comment)
            line = ""
    return out


class Machine:
    """The fresh machine: its environment, the long-running commands it has going, what stands in for the
    docs' placeholders."""

    def __init__(self, tmp_path, pg_url):
        self.home = tmp_path / "home"
        self.work = tmp_path / "work"
        runtime = tmp_path / "run"
        for d in (self.home, self.work, runtime):
            d.mkdir(mode=0o700)
        self.env = {
            k: v for k, v in os.environ.items() if not k.startswith(("CRIBBOARD_", "XDG_", "LC_", "LANG", "DISPLAY"))
        }
        self.env.update(
            HOME=str(self.home),
            XDG_RUNTIME_DIR=str(runtime),
            LANG="C.UTF-8",
            PATH="%s:%s" % (BIN, os.environ["PATH"]),
            CRIBBOARD_DB_WAIT="30",
        )
        self.pg_url = pg_url
        self.running = []  # (process, its command)
        self.board = None  # the simulated board's id, once it has told it
        self.page = None  # its page's address
        self.port = None  # its serial port
        self.server = None  # the club's server's address
        self.flagged = []  # game ids the night flagged, in the order the docs take them
        self.flags_made = False  # (the games flagged once, at the first `night flags` the docs show)

    def say(self, command):
        """The command with this machine's values for the docs' stand-ins."""
        said = command
        said = re.sub(r"postgresql://\w+@\w+/cribbage", self.pg_url, said).replace("--db DB", "--db " + self.pg_url)
        if self.server:
            said = re.sub(r"http://(192\.168\.1\.20|BALANCER|A\.B\.C\.D):8120/", self.server, said)
        if self.board:
            said = re.sub(r"\b(3f2a|3fa2)\b", self.board[:8], said)
            said = re.sub(r"\bBOARD\b", self.board, said)
        if self.port:
            said = said.replace("--port A --port B", "--port %s" % self.port)  # (one board here)
            said = said.replace("--port P ", "--port %s " % self.port)
        if " night take 812" in said:
            game, names = self.flagged.pop(0)
            said = said.replace("812 Ann Bob", "812 %s %s" % tuple(map(shlex.quote, names)))  # who played it
            said = said.replace("812", str(game))
        return said

    def run(self, command, stdin=""):
        return subprocess.run(
            ["bash", "-c", command],
            cwd=self.work,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=COMMAND_S,
        )

    def start(self, command):
        """A long-running command, once it has said its first line (its address, or what it watches)."""
        command = command.removesuffix("&").strip()  # (started in the background here too)
        if command.split()[1] == "serve":  # its port is 8120 on a club's machine (or what --http says): any here
            command = re.sub(r" --http \S+", "", command) + " --http 127.0.0.1:0"
        proc = subprocess.Popen(
            ["bash", "-c", "exec " + command],
            cwd=self.work,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.running.append((proc, command))
        lines = []

        def read(stream):
            for line in stream:
                lines.append(line)

        for stream in (proc.stdout, proc.stderr):
            threading.Thread(target=read, args=(stream,), daemon=True).start()
        deadline = time.monotonic() + WAIT_S
        ready = {
            "sim": r"serial port: +(?P<port>\S+)(?s:.*)board page: +(?P<page>\S+)",
            "serve": r"(?P<server>http://127\.0\.0\.1:\d+/)",
            "watch": r"watching board",
            "live": r"http://",
        }[command.split()[1]]
        while (found := re.search(ready, "".join(lines))) is None:
            assert proc.poll() is None, (command, "".join(lines))
            assert time.monotonic() < deadline, (command, "".join(lines))
            time.sleep(0.05)
        for name, value in found.groupdict().items():
            setattr(self, name, value)

    def stop_all(self, only=None):
        """Ctrl-C to each long-running command (or only those whose verb is one of `only`), the last
        started first: each must end by itself. The commands that did not, and how they ended."""
        failures = []
        for proc, command in reversed(list(self.running)):
            if only is not None and command.split()[1] not in only:
                continue
            self.running.remove((proc, command))
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
            try:
                code = proc.wait(WAIT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                code = "hung"
            if code not in (0, -signal.SIGINT, 130):
                failures.append((command, code))
        return failures

    def press(self, button, gesture="tap"):
        body = json.dumps({"button": button, "gesture": gesture}).encode()
        req = urllib.request.Request(
            self.page + "api/press" if self.page.endswith("/") else self.page + "/api/press",
            data=body,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=WAIT_S) as r:
            assert r.status == 200

    def play_games_to_61(self, games):
        """As simboard.Board's play_a_game_to_61, games times: the menu's target (61) once, then in each
        game track 2 to 12 and track 1 to 61, confirmed."""
        self.press("OK", "long")
        for _ in range(3):
            self.press("P1")
        self.press("P2")
        self.press("OK")
        for _ in range(games):
            self.play_a_game()

    def play_a_game(self):
        for button, points in [("P2", 12)] + [("P1", 20)] * 3 + [("P1", 1)]:
            for _ in range(points):
                self.press(button)
            self.press("OK")
        self.press("OK")


def _night_result(machine, said):
    """`night result R A SA B SB` with the names of a pair the draw made in round R (the draw is random)."""
    words = shlex.split(said)
    at = words.index("result")
    number = words[at + 1]
    rows = json.loads(machine.run("cribboard night round %s --json" % number).stdout)
    pair = next(g for g in rows if g["second"])
    words[at + 2], words[at + 4] = pair["first"], pair["second"]
    return shlex.join(words)


def _flag_two_games(machine):
    """Two games the board at table 2 reported with a pair drawn to another table in round 1: flagged."""
    rows = json.loads(machine.run("cribboard night round 1 --json").stdout)
    elsewhere = [g for g in rows if g["second"] and g["table"] != "2"]
    assert len(elsewhere) == 2 and machine.board, (rows, machine.board)
    from nightgames import record

    conn = store.connect(str(machine.home / ".local/share/cribboard/cribboard.sqlite3"))
    try:
        before = conn.value("SELECT MAX(id) FROM games")
        for seq, g in enumerate(elsewhere, 1000):  # (after the board's own records)
            store.games.add(conn, machine.board, "t", [(seq, record(seq, [g["first"], g["second"]], 0, 90))], "now", {})
        ids = [r["id"] for r in conn.all("SELECT id FROM games WHERE id > ? ORDER BY id", (before,))]
        assert len(ids) == 2, ids
        machine.flagged = [(i, (g["first"], g["second"])) for i, g in zip(ids, elsewhere)]
    finally:
        conn.close()


def _tournament_cut(machine, said):
    """`tournament cut` once the qualifying is in: each game no one entered is entered here, the lower
    number winning by a margin of its own; players still equal at the line are taken in their order."""
    from cribboard.night import director

    conn = store.connect(str(machine.home / ".local/share/cribboard/cribboard.sqlite3"))
    try:
        night = director.latest(conn)
        assert night is not None
        for number, games in enumerate(night.drawn, 1):
            for k, g in enumerate(games):
                if g.second is not None and (number, frozenset((g.first, g.second))) not in night.filed.results:
                    winner, loser = sorted((g.first, g.second))
                    store.nights.enter(conn, night.id, number, (winner, loser), (121, 91 + k % 30), 121, None, "now")
    finally:
        conn.close()
    rows = json.loads(machine.run("cribboard tournament standings --json").stdout)
    through = sum(1 for r in rows if r["cut"] == "through")
    tied = [r["number"] for r in rows if r["cut"] == "at the line"]
    qualifiers = -(-len(rows) // 4)
    return said + "".join(" --take '#%d'" % n for n in tied[: qualifiers - through])


def _tournament_result(machine, said):
    """`tournament result A SA B SB` with the names of a first-round match (the qualifying was random)."""
    words = shlex.split(said)
    at = words.index("result")
    rows = json.loads(machine.run("cribboard tournament bracket --round 1 --json").stdout)
    match = next(r for r in rows if not r["bye"])
    words[at + 1], words[at + 3] = match["players"]
    return shlex.join(words)


@pytest.mark.slow
def test_every_command_in_the_docs_runs_as_printed_on_a_fresh_machine(tmp_path, pg_cluster):
    machine = Machine(tmp_path, pg_cluster.new_database())
    (machine.work / "hands.txt").write_text("6C 7S 8D 8H 9S\n5C 5D 5S JH 5H\n")
    ran, failures = [], []
    try:
        for doc in DOCS:
            for command in commands(doc):
                said = machine.say(command)
                verb = said.split()[1]
                if verb in LONG:
                    machine.start(said)
                    ran.append(said)
                    failures += [(doc.name, c, code, "did not stop") for c, code in machine.stop_all(VIEWERS)]
                    continue
                if said.startswith("cribboard night result"):
                    said = _night_result(machine, said)
                if said == "cribboard tournament cut":
                    said = _tournament_cut(machine, said)
                if said.startswith("cribboard tournament result"):
                    said = _tournament_result(machine, said)
                stdin = {"wifi": "clubpass\nclubpass\n", "barbu": "quit\n", "piquet": "quit\n"}.get(verb, "")
                done = machine.run(said, stdin)
                ran.append(said)
                want, why = REFUSED.get(command, (0, ""))
                if "Traceback" in done.stderr or done.returncode != want or why not in done.stderr:
                    failures.append((doc.name, said, done.returncode, done.stderr[-600:]))
                if said == "cribboard players Ann Bob":  # the board's names set: three games played on it
                    machine.play_games_to_61(3)
                if verb == "sync" and machine.board is None:
                    conn = store.connect(str(machine.home / ".local/share/cribboard/cribboard.sqlite3"))
                    machine.board = conn.value("SELECT board FROM boards")
                    conn.close()
                if said.startswith("cribboard night flags") and not machine.flags_made:  # (the first the docs show)
                    _flag_two_games(machine)
                    machine.flags_made = True
    finally:
        failures += [("the end", c, code, "did not stop") for c, code in machine.stop_all()]
    assert len(ran) > 80 and not failures, "\n".join(map(str, failures))
