# A tournament on the club's projector page (GET /night on `cribboard
# serve`) in Debian's chromium: the qualifying standings with the cut line
# (those through above it, the rest dimmed below), then, once the cut is
# made, the bracket as a display board: the bye, a semi-final live from its
# board's signed report, its games won, and the final once it is known; in
# the browser's language (Spanish) and in the others the reader picks.
import json
import urllib.error
import urllib.request

import clubserver
from clirun import cli
from clubserver import KEY
from playwright.sync_api import sync_playwright
from test_browser import CHROMIUM_FLAGS, PAGE_WAIT_MS, chromium_path
from test_browser_night import rows
from test_club import send
from test_night import Boards

from cribboard import store
from cribcore.clubwire import LIVE

from rig import Table

BOARDS = ["b0ard-%d" % i for i in range(1, 7)]


def classes(page, selector):
    return page.eval_on_selector_all(selector, "rows => rows.map(r => r.className)")


def test_the_projector_page_shows_the_cut_line_then_the_bracket_live(tmp_path):
    db_url = str(tmp_path / "club.sqlite3")
    store.connect(db_url, create=True).close()
    chromium = chromium_path()
    with clubserver.serving(db_url, BOARDS[0]) as (url, _db, _proc):
        conn = store.connect(db_url)
        for b in BOARDS[1:]:
            store.club.pair(conn, b, KEY.encode(), "2026-11-28T19:00:00+00:00")
        conn.close()
        names = ["E%02d" % n for n in range(1, 13)]
        tables = [x for n, b in enumerate(BOARDS, 1) for x in ("--table", "%d=%s" % (n, b))]
        done = cli(
            "tournament", "new", *names, "--games", "2", *tables, "--seed", "4", "--name", "Open", "--db", db_url
        )
        assert done.returncode == 0, done.stderr
        boards = Boards(db_url)
        boards.seq = dict.fromkeys(BOARDS, 0)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            try:
                context = browser.new_context(locale="es-ES", viewport={"width": 1600, "height": 900})
                page = context.new_page()
                page.set_default_timeout(PAGE_WAIT_MS)
                page.goto(url + "night", wait_until="load")
                page.wait_for_function("document.getElementById('title').textContent === 'Torneo 1: Open'")
                said = "12 inscritos: se clasifican 3, un cuadro de 4 con 1 exentos"
                page.wait_for_function("document.getElementById('cutnote').textContent === %s" % json.dumps(said))
                # The qualifying: the lower number wins both games of its pairing, by more the lower it is.
                for number in (1, 2):
                    for g in json.loads(cli("night", "round", str(number), "--json", "--db", db_url).stdout):
                        first, second = g["numbers"]
                        winner = min(first, second)
                        boards.play(g["board"], [g["first"], g["second"]], [first, second].index(winner), 60 + winner)
                standings = json.loads(cli("tournament", "standings", "--json", "--db", db_url).stdout)
                through = [r["player"] for r in standings if r["cut"] == "through"]
                assert len(through) == 3
                page.wait_for_function("document.querySelectorAll('#standings tr.out').length === 9")
                shown = rows(page, "#standings tbody tr")
                assert [r[1] for r in shown] == [r["player"] for r in standings]
                assert classes(page, "#standings tbody tr")[:4] == [
                    "standing",
                    "standing",
                    "standing cut-below",  # the line under the third: three of twelve qualify
                    "standing out",
                ]
                done = cli("tournament", "cut", "--db", db_url, "--json")
                assert done.returncode == 0, done.stderr
                first_round = json.loads(done.stdout)
                bye, semi = first_round  # the chart of 4: seed 1 v 4 (a bye), seed 2 v 3
                assert (bye["bye"], semi["seeds"]) == (True, [2, 3])
                page.wait_for_function("document.querySelectorAll('#bracket .match').length === 3")
                assert page.eval_on_selector_all("#bracket h2", "hs => hs.map(h => h.textContent)") == [
                    "Semifinales",
                    "Final",
                ]
                assert page.is_hidden(".cols")  # the bracket takes the room
                t = Table()  # the semi-final's first game under way at its table: 9 points to the higher seed
                t.app.session.set_names(semi["players"])
                t.enter(0, 9)
                status, answer, _sig, _raw = send(
                    url, LIVE, {"state": json.loads(json.dumps(t.state()))}, "1.1", board=semi["board"]
                )
                assert status == 200
                assert answer["names"] == semi["players"]
                page.wait_for_function("document.querySelector('#bracket .live') !== null")
                assert page.text_content("#bracket .live") == "mesa %s: 9 - 0" % semi["table"]
                boxes = page.eval_on_selector_all("#bracket .match", "ms => ms.map(m => m.innerText)")
                assert boxes[0].split("\n") == ["1" + bye["players"][0], "(descansa)"]
                for k in range(2):  # the higher seed wins the match 2-0 on the board
                    boards.play(semi["board"], semi["players"], 0, 100 + k)
                page.wait_for_function(
                    "[...document.querySelectorAll('#bracket .match .won')].some(d => d.textContent.includes(%s))"
                    % json.dumps(semi["players"][0])
                )
                final = page.eval_on_selector_all(
                    "#bracket section:last-child .match div", "ds => ds.map(d => d.textContent)"
                )
                assert final[0].startswith("1" + bye["players"][0])  # the bye's seed and player
                assert final[1].startswith("2" + semi["players"][0])
                with urllib.request.urlopen(url + "api/night?tournament=1", timeout=30) as answer:
                    assert json.loads(answer.read())["tournament"]["stage"] == "playoffs"
                with urllib.request.urlopen(url + "api/night?tournament=9", timeout=30) as answer:
                    assert json.loads(answer.read()) == {"night": None}  # no such tournament: nothing to show
                try:
                    urllib.request.urlopen(url + "api/night?tournament=x", timeout=30)
                    raise AssertionError("a tournament that is not an id was taken")
                except urllib.error.HTTPError as e:
                    assert e.code == 400
                page.select_option("#lang", "de")
                page.wait_for_function("document.querySelector('#bracket h2').textContent === 'Halbfinale'")
                assert page.text_content("#title") == "Turnier 1: Open"
                page.select_option("#lang", "it")
                page.wait_for_function("document.querySelector('#bracket h2').textContent === 'Semifinali'")
                page.select_option("#lang", "en")
                page.wait_for_function("document.querySelector('#bracket h2').textContent === 'Semi-finals'")
                assert page.text_content("#title") == "Tournament 1: Open"
                context.close()
            finally:
                browser.close()
