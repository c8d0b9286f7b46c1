# Helpers for tests that run the simulated board: start one on a fresh flash,
# press its buttons over HTTP, and fill its log with finished games; and the
# same board behind the emulated Pico's interface (UnixPico), for the fault
# tests that run on both.
import json
import shutil
import time
import urllib.request
from pathlib import Path

from deadline import WAIT_S
from pico import settled

from cribapp.store import FlashFiles, Store
from cribboard import resources
from cribboard.sim import simulator
from cribboard.web.server import make_server
from cribcore import record
from cribcore.match import Match


def log_tail(sim, chars=2000):
    """The end of a simulated board process's log (its tracebacks, its watchdog's reports)."""
    try:
        return sim.log_path.read_text(errors="replace")[-chars:]
    except OSError as e:
        return "(no log: %s)" % e


class Board:
    def __init__(self, flash, seed=True, edition="micropython", firmware=True):
        """firmware=False: the flash holds only MicroPython's (no app to draw a first frame)."""
        self.flash = Path(flash)
        if seed:
            simulator.seed_flash(self.flash, edition=edition)
        self.sim = simulator.Simulator(self.flash, edition=edition)
        self.sim.start(timeout=WAIT_S, first_frame=firmware)
        self.sim._hw.press_timeout_s = WAIT_S  # the page's API waits this long for a press to be seen
        self.server = make_server(self.sim, "127.0.0.1", 0)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]

    def wait_saved(self):
        """Until the board has saved its state (a fresh board does just after its first frame): until
        then its page's state is an error, rightly."""
        deadline = time.monotonic() + WAIT_S
        while self.sim.scoreboard() is None:
            assert time.monotonic() < deadline, "the board saved no state within %d s" % WAIT_S
            time.sleep(0.02)

    @property
    def port(self):
        return self.sim.port

    def restarts(self):
        """The restarts the board has told of so far (a flash restarts it once, at its end)."""
        return self.sim._hw.resets

    def back(self, restarts):
        """Until the board has restarted since it had told of `restarts`, drawn its first frame and made
        the passes that attach its link. What is sent to it before then is lost (as a board that leaves
        the USB bus loses it): a press fails, a HELLO waits out a try. (A frame newer than the one before
        a flash may be the old program's last.)"""
        assert self.sim._hw.wait_restarted(restarts, WAIT_S), "the board did not come back: %s" % self.log_tail()
        settled(self.sim._hw, 300)

    def stop(self):
        self.server.shutdown()
        self.sim.stop()

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=WAIT_S) as r:
            return json.loads(r.read())

    def post(self, path, body):
        req = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=WAIT_S) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def press(self, button, gesture="tap"):
        status, body = self.post("/api/press", {"button": button, "gesture": gesture})
        assert status == 200, (body, self.log_tail())

    def log_tail(self, chars=2000):
        return log_tail(self.sim, chars)

    def enter(self, button, points):
        for _ in range(points):
            self.press(button)
        self.press("OK")

    def play_a_game_to_61(self):
        """A game to 61 through the buttons, as a table plays it: the menu's
        target (item 4), then track 2 to 12 and track 1 to 61, confirmed with
        OK (the board logs it)."""
        self.press("OK", "long")
        for _ in range(3):
            self.press("P1")
        self.press("P2")
        self.press("OK")
        self.enter("P2", 12)
        for _ in range(3):
            self.enter("P1", 20)
        self.enter("P1", 1)
        self.press("OK")

    def leds(self):
        return self.get("/api/leds")["leds"]

    def lit(self, index, on=True):
        """Whether LED index is lit (or dark, with on=False) now: a press is
        answered only after the board has drawn what it did."""
        return (sum(self.leds()[index]) > 0) == on


def deploy_state(flash_dir):
    """What deploy.json on a simulated flash says: none, incomplete, complete, torn or unreadable."""
    try:
        data = json.loads((Path(flash_dir) / "deploy.json").read_text())
    except FileNotFoundError:
        return "none"
    except ValueError:
        return "torn"
    return data.get("state") if isinstance(data, dict) else "unreadable"


def fill_log(flash, games, board_id="feedc0de"):
    """Log `games` finished games on a board's flash, as its firmware would."""
    Path(flash).mkdir(parents=True, exist_ok=True)
    store = Store(FlashFiles(str(flash)))
    store.load()
    log_games(store, games, board_id)


def log_games(store, games, board_id="feedc0de"):
    """Log `games` finished games in a board's store (after any it has)."""
    for n in range(store.last_seq + 1, store.last_seq + games + 1):
        m = Match(first_to=99)
        g = m.game
        loser = 40 + n % 60
        while g.score(1) < loser:
            g.add(1, min(20, loser - g.score(1)), "points", 1000 * n)
        while not g.over():
            g.add(0, 20, "points", 1000 * n + 500)
        rec = record.game_record(m, 0)
        rec.update(
            {
                "match": n,
                "game_no": 1,
                "board": board_id,
                "boot": 1,
                "ticks": 1000 * n + 900,
                "wall": None,
                "firmware": "test",
            }
        )
        assert store.append((n, 1), json.dumps(rec)) == n


def copy_flash(src, dst):
    """A copy of a simulated board's flash folder, also while it runs: a
    file the board renames away mid-copy (a save's temporary file) is one a
    power cut at that moment would not have left."""

    def copy_if_there(a, b):
        try:
            shutil.copy2(a, b)
        except FileNotFoundError:
            pass

    shutil.copytree(src, dst, copy_function=copy_if_there)
    return Path(dst)


class UnixPico:
    """The simulated board (the firmware on MicroPython's unix port) with the
    emulated Pico's interface (pico.Pico), so that one fault test runs on
    both: start() a power-up, stop() a power cut that also takes the port
    away, .hw its buttons and strip, .port its serial line, freeze() a hang
    only its watchdog ends. Its flash is a folder: a missing one is a board
    with only MicroPython on it (and the pin map and layout the simulator
    draws from)."""

    def __init__(self, flash):
        self.flash = Path(flash)
        self.sim = None

    @staticmethod
    def copy(src, dst):
        """A copy of a board's flash, powered off or running."""
        return copy_flash(src, dst)

    def start(self, env=None):
        if not self.flash.exists():
            self.flash.mkdir(parents=True)
            shutil.copy(resources.board_file("pico"), self.flash / "board.json")
            shutil.copy(resources.layout_file("2-track"), self.flash / "layout.json")
        self.sim = simulator.Simulator(self.flash)
        self.sim.start(first_frame=False)
        self.sim._hw.press_timeout_s = WAIT_S  # as Board's: a press is waited for as long as any event
        return self

    @property
    def hw(self):
        return self.sim._hw

    @property
    def port(self):
        return self.sim.port

    def first_frame(self, timeout=WAIT_S):
        return self.hw.wait_frame(0, timeout)

    def ready(self, timeout=WAIT_S, ms=300):
        frames = self.first_frame(timeout)
        settled(self.hw, ms)
        return frames

    def freeze(self):
        self.hw.freeze()

    def cut_soon(self):
        """The power goes now (the simulated flash is a folder of files: no
        single erase or program to cut after) and the port goes with it."""
        self.stop()

    def deploy_state(self):
        return deploy_state(self.flash)

    def log_tail(self, chars=2000):
        return log_tail(self.sim, chars) if self.sim is not None else "(not running)"

    def died(self, timeout):
        return self.sim is None or not self.sim.alive()

    def stop(self):
        if self.sim is not None:
            self.sim.stop()
            self.sim = None
