# Results from the players' phones (issue 70) in Debian's chromium on phones'
# screens, against a real `cribboard serve`: at a wooden table one player
# enters the game and the other confirms it on their own phone; a refusal
# waits for the director, who settles it; a phone off the network keeps
# what was entered and sends it, once, when the network is back.
import json

import clubserver
from clirun import cli
from playwright.sync_api import sync_playwright
from test_browser import CHROMIUM_FLAGS, chromium_path
from test_browser_me import phone, text_is

from cribboard import store


def claims_stored(db_url):
    db = store.connect(db_url)
    try:
        return db.value("SELECT COUNT(*) FROM result_claims")
    finally:
        db.close()


def enter(page, won, loser_score):
    """On a page's form: who won (its player or the other), the loser's score, sent."""
    page.click("#iWon" if won else "#theyWon")
    page.fill("#loser", str(loser_score))
    page.click("#send")


def test_a_wooden_tables_result_is_entered_on_one_phone_and_confirmed_on_the_other(tmp_path):
    db_url = str(tmp_path / "club.sqlite3")
    store.connect(db_url, create=True).close()
    db = ["--db", db_url]
    with clubserver.serving(db_url, "b0ard-one") as (url, _db, _proc):
        done = cli(
            "night",
            "new",
            "Ann",
            "Bob",
            "Cy",
            "Di",
            "--table",
            "1",
            "--table",
            "2",
            "--rounds",
            "3",
            "--seed",
            "2",
            "--json",
            *db,
        )
        assert done.returncode == 0, done.stderr
        one, two = json.loads(done.stdout)
        a, b, c, d = one["first"], one["second"], two["first"], two["second"]
        held = {r["player"]: r["code"] for r in json.loads(cli("night", "codes", "--json", *db).stdout)}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
            try:
                pages = {}
                for player, locale in ((a, "es-ES"), (b, "en-GB"), (c, "de-DE"), (d, "it-IT")):
                    pages[player], _context = phone(browser, locale)
                    pages[player].goto(url + "me#" + held[player], wait_until="load")
                    text_is(pages[player], "#who", player)
                    pages[player].wait_for_selector("#entry", state="visible")
                # Table 1: a (in Spanish) enters a win, 121 to 95; b confirms on their phone.
                enter(pages[a], True, 95)
                sent = "Enviado: usted 121, %s 95. Esperando a que %s lo confirme." % (b, b)
                text_is(pages[a], "#claim", sent)
                pages[a].reload(wait_until="load")  # what was sent is the server's: a reload shows it
                text_is(pages[a], "#claim", sent)
                text_is(pages[b], "#claim", "%s entered: you 95, %s 121." % (a, a))  # pushed: not reloaded
                assert pages[b].is_visible("#confirm") and not pages[b].is_visible("#entry")
                pages[b].click("#confirm")
                text_is(pages[a], "#score", "ganada 121 - 95")
                text_is(pages[b], "#score", "lost 95 - 121")
                assert not pages[a].is_visible("#report")
                # Table 2: c (in German) enters a win, d (in Italian) says it is not right: the director settles it.
                enter(pages[c], True, 100)
                pages[d].wait_for_selector("#confirm", state="visible")
                pages[d].click("#wrong")
                text_is(
                    pages[c],
                    "#claim",
                    "Sie und %s sind sich nicht einig: der Turnierleiter entscheidet (oder geben Sie es gemeinsam "
                    "neu ein)." % d,
                )
                pages[d].wait_for_function("document.getElementById('claim').textContent.startsWith('Tu e ')")
                (flag,) = json.loads(cli("night", "flags", "--json", *db).stdout)
                assert (flag["reason"], flag["round"], flag["table"], flag["game"]) == ("refused", 1, "2", None)
                assert flag["said"] == "%s 121-100; %s \u2717" % (c, d)
                assert cli("night", "result", "1", c, "100", d, "121", *db).returncode == 0  # the director's word
                text_is(pages[d], "#round", "Turno 2 di 3")  # (every game of round 1 in: the next is in play)
                assert json.loads(cli("night", "flags", "--json", *db).stdout) == []
                # Round 2: a's phone is off the network when the game is entered; it goes when it is back.
                pages[a].wait_for_function("document.getElementById('round').textContent === 'Ronda 2 de 3'")
                opponent = pages[a].text_content("#opponent").removeprefix("contra ")
                pages[opponent].wait_for_selector("#entry", state="visible")
                before = claims_stored(db_url)
                pages[a].context.set_offline(True)
                enter(pages[a], False, 118)
                pages[a].wait_for_function("document.getElementById('pending').textContent !== ''")
                assert claims_stored(db_url) == before, "nothing could be sent"
                pages[a].context.set_offline(False)
                pages[a].wait_for_function("document.getElementById('pending').textContent === ''")
                pages[opponent].wait_for_selector("#confirm", state="visible")
                pages[opponent].click("#confirm")
                pages[a].wait_for_function("document.getElementById('score').textContent === 'perdida 118 - 121'")
                assert claims_stored(db_url) == before + 2, "the word kept offline was sent once"
            finally:
                browser.close()
        exported = json.loads(cli("night", "export", "--format", "json", *db).stdout)
        got = {(r["round"], r["table"]): (r["source"], r["entered_by"], r["confirmed_by"]) for r in exported["results"]}
        assert got[(1, "1")] == ("phone", a, b)
        assert got[(1, "2")] == ("hand", None, None)
        assert [v for (n, _t), v in got.items() if n == 2 and v[0] == "phone"] == [("phone", a, opponent)]
