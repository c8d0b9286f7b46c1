# The club night's projector page (GET /night on `cribboard serve`) in
# Debian's chromium: the round in play with who plays whom at which table,
# a game in progress live from its board's signed report, the standings,
# and the next round as soon as every game of this one is in; in the
# browser's language, and in the one the reader picks.
import json

import clubserver
from clirun import cli
from clubserver import KEY
from playwright.sync_api import sync_playwright
from test_browser import CHROMIUM_FLAGS, PAGE_WAIT_MS, chromium_path
from test_club import send
from test_night import Boards

from cribboard import store
from cribcore.clubwire import LIVE

from rig import Table


def rows(page, selector):
    return page.eval_on_selector_all(selector, "rows => rows.map(r => [...r.cells].map(c => c.textContent))")


def test_the_projector_page_shows_the_round_live_the_standings_and_then_the_next_round(tmp_path):
    db_url = str(tmp_path / "club.sqlite3")
    store.connect(db_url, create=True).close()
    chromium = chromium_path()
    with clubserver.serving(db_url, "b0ard-one") as (url, _db, _proc):
        conn = store.connect(db_url)
        store.club.pair(conn, "b0ard-two", KEY.encode(), "2026-11-27T19:00:00+00:00")
        conn.close()
        done = cli(
            "night",
            "new",
            "Ann",
            "Bob",
            "Cy",
            "Di",
            "--rounds",
            "3",
            "--seed",
            "2",
            "--name",
            "Jueves",
            "--db",
            db_url,
            "--json",
        )
        assert done.returncode == 0, done.stderr
        first = json.loads(done.stdout)
        at_one = next(g for g in first if g["board"] == "b0ard-one")
        t = Table()  # board one's game in progress: its players named, 7 points to its first track
        t.app.session.set_names([at_one["first"], at_one["second"]])
        t.enter(0, 7)
        status, answer, _sig, _raw = send(
            url, LIVE, {"state": json.loads(json.dumps(t.state()))}, "1.1", board="b0ard-one"
        )
        assert status == 200
        assert answer["names"] == [at_one["first"], at_one["second"]]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            try:
                context = browser.new_context(locale="es-ES", viewport={"width": 1600, "height": 900})
                page = context.new_page()
                page.set_default_timeout(PAGE_WAIT_MS)
                page.goto(url + "night", wait_until="load")
                page.wait_for_function("document.getElementById('round').textContent === 'Ronda 1 de 3'")
                assert page.text_content("#title") == "Noche de club 1: Jueves"
                shown = rows(page, "#games tbody tr")
                assert sorted(r[:3] for r in shown) == sorted([str(g["table"]), g["first"], g["second"]] for g in first)
                assert [r[3] for r in shown if r[1] == at_one["first"]] == ["7 - 0"]  # live from the board
                assert page.eval_on_selector_all("#games td.live", "cells => cells.length") == 1
                assert len(rows(page, "#standings tbody tr")) == 4
                boards = Boards(db_url)  # the round's games come in (as the boards' reports store them)
                for k, g in enumerate(first):
                    boards.play(g["board"], [g["first"], g["second"]], k % 2, 80 + k)
                page.wait_for_function("document.getElementById('round').textContent === 'Ronda 2 de 3'")
                second = json.loads(cli("night", "round", "--db", db_url, "--json").stdout)
                assert sorted(r[1:3] for r in rows(page, "#games tbody tr")) == sorted(
                    [g["first"], g["second"]] for g in second
                )
                table = json.loads(cli("night", "standings", "--db", db_url, "--json").stdout)
                assert rows(page, "#standings tbody tr") == [
                    [
                        str(r["rank"]),
                        r["player"],
                        r["card"],
                        "%+d" % r["spread"] if r["spread"] else "0",
                        str(r["games"]),
                    ]
                    for r in table
                ]
                page.select_option("#lang", "de")  # the reader's choice
                page.wait_for_function("document.getElementById('round').textContent === 'Runde 2 von 3'")
                assert page.text_content("#standings-title") == "Wertung"
                context.close()
            finally:
                browser.close()
