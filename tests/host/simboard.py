# Helpers for tests that run the simulated board: start one on a fresh flash,
# press its buttons over HTTP, and fill its log with finished games.
import json
import urllib.request
from pathlib import Path

from cribapp.flashfs import FlashFiles
from cribapp.store import Store
from cribboard import simulator, web
from cribcore import record
from cribcore.match import Match


class Board:
    def __init__(self, flash, seed=True, edition="micropython"):
        self.flash = Path(flash)
        if seed:
            simulator.seed_flash(self.flash, edition=edition)
        self.sim = simulator.Simulator(self.flash, edition=edition)
        self.sim.start()
        self.server = web.make_server(self.sim, "127.0.0.1", 0)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]

    @property
    def port(self):
        return self.sim.port

    def stop(self):
        self.server.shutdown()
        self.sim.stop()

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read())

    def post(self, path, body):
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def press(self, button, gesture="tap"):
        status, body = self.post("/api/press", {"button": button, "gesture": gesture})
        assert status == 200, body

    def enter(self, button, points):
        for _ in range(points):
            self.press(button)
        self.press("OK")

    def leds(self):
        return self.get("/api/leds")["leds"]

    def lit(self, index, on=True):
        """Whether LED index is lit (or dark, with on=False) now: a press is
        answered only after the board has drawn what it did."""
        return (sum(self.leds()[index]) > 0) == on


def fill_log(flash, games, board_id="feedc0de"):
    """Log `games` finished games on a board's flash, as its firmware would."""
    Path(flash).mkdir(parents=True, exist_ok=True)
    store = Store(FlashFiles(str(flash)))
    store.load()
    for n in range(1, games + 1):
        m = Match(first_to=99)
        g = m.game
        loser = 40 + n % 60
        while g.score(1) < loser:
            g.add(1, min(20, loser - g.score(1)), "points", 1000 * n)
        while not g.over():
            g.add(0, 20, "points", 1000 * n + 500)
        rec = record.game_record(m, 0)
        rec.update({"match": n, "game_no": 1, "board": board_id, "boot": 1, "ticks": 1000 * n + 900,
                    "wall": None, "firmware": "test"})
        assert store.append((n, 1), json.dumps(rec)) == n
