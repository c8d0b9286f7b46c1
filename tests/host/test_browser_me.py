# A player's own page (GET /me on `cribboard serve`) in Debian's chromium on
# a phone's screen: opened from the address on the scorecard, it shows the
# player's table, opponent and who deals first, then their game's result and
# their standing once the result is in, by itself; opened bare, it asks for
# the code, says so when one is wrong, and opens with the right one.
import json

import clubserver
from clirun import cli
from playwright.sync_api import sync_playwright
from test_browser import CHROMIUM_FLAGS, PAGE_WAIT_MS, chromium_path

from cribboard import store

PHONE = {"width": 390, "height": 844}


def phone(browser, locale):
    """A new phone's browser (its own storage) in locale: its page, and its context to close."""
    context = browser.new_context(locale=locale, viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(PAGE_WAIT_MS)
    return page, context


def text_is(page, selector, text):
    page.wait_for_function(
        "([s, t]) => document.querySelector(s).textContent === t", arg=[selector, text], timeout=PAGE_WAIT_MS
    )


def test_a_players_page_shows_their_seat_then_their_result_and_asks_for_a_code_it_lacks(tmp_path):
    db_url = str(tmp_path / "club.sqlite3")
    store.connect(db_url, create=True).close()
    chromium = chromium_path()
    with clubserver.serving(db_url, "b0ard-one") as (url, _db, _proc):
        done = cli("night", "new", "Ann", "Bob", "Cy", "Di", "--rounds", "3", "--seed", "2", "--db", db_url, "--json")
        assert done.returncode == 0, done.stderr
        game = json.loads(done.stdout)[0]
        first, second = game["first"], game["second"]
        held = {r["player"]: r["code"] for r in json.loads(cli("night", "codes", "--db", db_url, "--json").stdout)}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            try:
                page, context = phone(browser, "de-DE")
                page.goto(url + "me#" + held[second], wait_until="load")
                text_is(page, "#who", second)
                text_is(page, "#table", "Tisch %s" % game["table"])
                assert page.text_content("#opponent") == "gegen %s" % first
                assert page.text_content("#deal") == "%s gibt zuerst." % first
                assert page.text_content("#round") == "Runde 1 von 3"
                assert "#" not in page.url, "the code is not left in the address bar"
                entered = cli("night", "result", "1", first, "90", second, "121", "--db", db_url)
                assert entered.returncode == 0, entered.stderr
                text_is(page, "#score", "gewonnen 121 - 90")  # pushed: the page was not reloaded
                page.wait_for_function("document.getElementById('standing').textContent.startsWith('Platz 1')")
                page.click("#cardBox summary")  # the scorecard so far, asked for again once the line moved
                text_is(page, "#card tr", "1%sgewonnen 121 - 903+31" % first)  # a skunk: 3 points
                page.click("#standingsBox summary")
                assert page.text_content("#standings tr.me") == "1%s3/1+31" % second  # their own line picked out
                assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
                context.close()

                page, context = phone(browser, "en-GB")
                page.goto(url + "me", wait_until="load")
                page.wait_for_selector("#code", state="visible")
                page.fill("#code", "ZZZZZ-ZZZZZ")
                page.click("#open")
                page.wait_for_function("document.getElementById('note').textContent.startsWith('No player has')")
                page.fill("#code", held[first].lower())  # as typed on a phone's keyboard
                page.click("#open")
                text_is(page, "#who", first)
                text_is(page, "#deal", "You deal first.")
                text_is(page, "#score", "lost 90 - 121")
                page.reload(wait_until="load")  # kept in this browser: nothing typed again
                text_is(page, "#who", first)
                context.close()
            finally:
                browser.close()


def test_in_the_playoffs_a_players_page_shows_their_match(tmp_path):
    db_url = str(tmp_path / "club.sqlite3")
    store.connect(db_url, create=True).close()
    chromium = chromium_path()
    db = ["--db", db_url]
    with clubserver.serving(db_url, "b0ard-one") as (url, _db, _proc):
        names = ["E%d" % n for n in range(1, 9)]
        assert cli("tournament", "new", *names, "--seed", "3", "--best-of", "3", "--final", "3", *db).returncode == 0
        number = 1
        while True:  # the qualifying by hand: the lower number wins
            done = cli("night", "round", str(number), "--json", *db)
            if done.returncode:
                break
            for g in json.loads(done.stdout):
                if g["second"] is None:
                    continue
                won = min(g["numbers"])
                winner, loser = (g["first"], g["second"]) if won == g["numbers"][0] else (g["second"], g["first"])
                entered = cli("night", "result", str(number), winner, "121", loser, "100", *db)
                assert entered.returncode == 0, entered.stderr
            number += 1
        final = json.loads(cli("tournament", "cut", "--json", *db).stdout)[0]  # 8 entrants: two qualify
        higher, lower = final["players"]
        held = {r["player"]: r["code"] for r in json.loads(cli("tournament", "codes", "--json", *db).stdout)}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            try:
                page, context = phone(browser, "it-IT")
                page.goto(url + "me#" + held[lower], wait_until="load")
                text_is(page, "#round", "Finale")
                assert page.text_content("#opponent") == "contro %s" % higher
                assert page.text_content("#deal") == "al meglio di 3"
                assert page.text_content("#score") == "0 - 0"
                assert cli("tournament", "result", lower, "121", higher, "99", *db).returncode == 0
                text_is(page, "#score", "1 - 0")  # their wins first
                assert cli("tournament", "result", lower, "121", higher, "80", *db).returncode == 0
                text_is(page, "#opponent", "Hai vinto il torneo.")
                assert page.text_content("#score") == "2 - 0"
                page.click("#bracketBox summary")  # the bracket, their match picked out (the higher seed first)
                assert page.text_content("#bracket h2") == "Finale"
                assert page.text_content("#bracket tr.me") == "%s%s0 - 2" % (higher, lower)
                page.goto(url + "me#" + held[higher], wait_until="load")  # the other's card opened on this phone
                text_is(page, "#opponent", "Fuori dai playoff: questo incontro è perso.")
                assert page.text_content("#score") == "0 - 2"
                context.close()
            finally:
                browser.close()
