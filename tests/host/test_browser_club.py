# The club's page of its boards (GET / on `cribboard serve`) in Debian's
# chromium (issue 67): a board's live score shown as its signed report
# comes, pushed by the server's stream (/api/events), not polled: the page
# asks for the scoreboards once, at its start.
import json

import clubserver
from playwright.sync_api import sync_playwright
from test_browser import CHROMIUM_FLAGS, PAGE_WAIT_MS, chromium_path
from test_club import send

from cribcore.clubwire import LIVE

from rig import Table

SCORES = "[...document.querySelectorAll('.player-score')].map(c => c.textContent).join(' ')"


def test_the_club_page_shows_each_boards_score_as_the_server_pushes_it(tmp_path):
    chromium = chromium_path()
    with clubserver.serving(str(tmp_path / "club.sqlite3"), "b0ard") as (url, _db, _proc):
        table = Table()
        table.enter(0, 7)
        assert send(url, LIVE, {"state": json.loads(json.dumps(table.state()))}, "1.1")[0] == 200
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            try:
                page = browser.new_page()
                page.set_default_timeout(PAGE_WAIT_MS)
                asked = []
                page.on("request", lambda r: asked.append(r.url[len(url) - 1 :]))
                page.goto(url, wait_until="load")
                page.wait_for_function("%s === '7 0'" % SCORES)
                table.enter(1, 12)  # the board's next press, reported
                assert send(url, LIVE, {"state": json.loads(json.dumps(table.state()))}, "1.2")[0] == 200
                page.wait_for_function("%s === '7 12'" % SCORES)
                assert "/api/events" in asked
                assert asked.count("/api/state") == 1  # (at the start: then pushed)
            finally:
                browser.close()
