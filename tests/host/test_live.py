# `cribboard live`: real boards (here simulated ones, reached only through
# their serial ports, as real boards are) on one scoreboard page, their LEDs
# drawn by the board's own drawing code from the state each reports.
import json
import signal
import subprocess
import sys
import time
import urllib.request

from deadline import WAIT_S
from simboard import Board
from test_browser import CHROMIUM_FLAGS, PAGE_WAIT_MS, chromium_path

from cribboard.link.client import BoardLink


def get(url):
    with urllib.request.urlopen(url, timeout=WAIT_S) as r:
        return json.loads(r.read())


def press_status(url):
    req = urllib.request.Request(
        url + "api/press", data=json.dumps({"button": "P1"}).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=WAIT_S) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def until(check, seconds=WAIT_S):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.1)
    return check()


def test_two_boards_on_one_live_page(tmp_path):
    a, b = Board(tmp_path / "a"), Board(tmp_path / "b")
    live = None
    try:
        link = BoardLink(b.port)
        link.set_names(["Cy", "Di"])
        link.close()
        a.enter("P1", 12)
        a.enter("P2", 7)
        a.enter("P1", 3)  # track 1: front peg 15, back peg 12
        live = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cribboard",
                "live",
                "--port",
                a.port,
                "--port",
                b.port,
                "--headless",
                "--json",
                "--http",
                "127.0.0.1:0",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        where = json.loads(live.stdout.readline())
        url = where["url"]
        assert [x["port"] for x in where["boards"]] == [a.port, b.port]
        state = until(lambda: get(url + "api/state")["boards"][0].get("scores") == [15, 7] and get(url + "api/state"))
        first, second = state["boards"]
        assert (first["players"], first["back_pegs"], first["dealer"], first["game"]) == (
            ["Track 1", "Track 2"],
            [12, 0],
            0,
            1,
        )
        assert first["skunk"] is None  # 15-7: far from the end, no skunk line to warn of
        assert (second["players"], second["scores"]) == (["Cy", "Di"], [0, 0])
        # The LEDs drawn here from the reported state are the board's own.
        assert get(url + "api/leds?board=0")["leds"] == a.leds()
        assert get(url + "api/layout?board=1")["buttons"] == []  # a real board is pressed at the table
        assert get(url + "api/leds?board=1")["leds"] == b.leds()
        b.enter("P2", 5)  # the page follows the board
        assert until(lambda: get(url + "api/state")["boards"][1]["scores"] == [0, 5])
        assert press_status(url) == 400  # a real board's buttons are at the table
        chromium = chromium_path()
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            try:
                page = browser.new_page(viewport={"width": 1200, "height": 1400})
                page.set_default_timeout(PAGE_WAIT_MS)  # (waits without a deadline of their own)
                page.goto(url, wait_until="load")
                page.wait_for_function("document.querySelectorAll('.player-name').length === 4", timeout=PAGE_WAIT_MS)
                names = page.locator(".player-name").all_text_contents()
                scores = page.locator(".player-score").all_text_contents()
                assert names == ["Track 1", "Track 2", "Cy", "Di"]
                assert scores == ["15", "7", "0", "5"]
                assert page.locator("button").count() == 0
                assert page.locator("svg").count() == 2
                assert "live scoreboard, 2 boards" in page.text_content("h1")
            finally:
                browser.close()
    finally:
        if live is not None:
            live.send_signal(signal.SIGTERM)
            assert live.wait(WAIT_S) == 0
        a.stop()
        b.stop()


def test_the_skunk_line_is_said_once_the_game_can_end_soon_and_at_its_end():
    from cribboard.web import scoreboard

    from rig import Table

    t = Table()
    t.enter(0, 15)
    t.enter(1, 7)
    assert scoreboard.view(json.loads(json.dumps(t.state())))["skunk"] is None  # not "triple skunk" at 15-7
    for _ in range(3):
        t.enter(0, 25)  # 90: still short of the top skunk line
    assert scoreboard.view(json.loads(json.dumps(t.state())))["skunk"] is None
    t.enter(0, 1)  # 91: the game may end within a deal or two
    assert scoreboard.view(json.loads(json.dumps(t.state())))["skunk"] == {
        "track": 1,
        "score": 7,
        "line": 31,
        "would_be": "triple skunk",
    }
    t.enter(1, 25)
    t.enter(1, 25)  # 57: under the 61 line
    t.enter(0, 29)
    t.enter(0, 1)  # 121: the game is over, a double skunk
    view = scoreboard.view(json.loads(json.dumps(t.state())))
    assert view["winner"] == 0 and view["skunk"]["would_be"] == "double skunk", view


def test_the_scoreboard_and_the_drawing_follow_the_show_from_the_state_alone():
    from cribapp import menu
    from cribapp import render as rc
    from cribboard.web import boardstate, scoreboard

    from rig import Table, choose

    t = Table()
    choose(t, {menu.ITEM_SHOW: 1})
    t.enter(0, 3)
    state = json.loads(json.dumps(t.state()))
    assert scoreboard.view(state)["show"] is False
    t.tap("OK")  # the pegging is over
    state = json.loads(json.dumps(t.state()))
    assert scoreboard.view(state)["show"] is True
    _, leds = boardstate.draw(state)
    assert [list(c) for c in leds] == [list(c) for c in t.strip.shown]  # what the board shows, from its state alone
    assert tuple(leds[t.layout.dealer[0]]) == t.renderer.colour(rc.MENU)
