# The discard panel on the simulated board's page, in a real browser
# (Debian's chromium driven by Playwright): pick six cards, see the throws
# ranked as `cribboard discard` ranks them.
import json

from clirun import cli
from playwright.sync_api import sync_playwright
from test_browser import CHROMIUM_FLAGS, OUTPUT, PAGE_WAIT_MS, chromium_path


def table(page):
    return [[td.strip() for td in row.split("\t")] for row in page.locator("#d-throws tr.throw").all_inner_texts()]


def test_picking_six_cards_ranks_every_throw_as_the_command_does(board):
    hand = ["5H", "5S", "JD", "4C", "6H", "KH"]
    want = json.loads(cli("discard", "--dealer", "--json", *hand).stdout)["throws"]
    chromium = chromium_path()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 1400})
            page.set_default_timeout(PAGE_WAIT_MS)  # (waits without a deadline of their own)
            page.goto(board.url, wait_until="load")
            page.wait_for_selector("#card-5H")
            assert page.locator("#d-cards button").count() == 52
            for name in hand[:5]:
                page.click("#card-" + name)
            assert page.text_content("#d-picked").startswith("5 of 6 picked")
            assert page.locator("#d-throws tr.throw").count() == 0  # nothing until the sixth
            page.click("#card-KH")
            page.wait_for_function(
                "document.querySelectorAll('#d-throws tr.throw').length === 15", timeout=PAGE_WAIT_MS
            )
            rows = table(page)
            assert [r[:3] for r in rows] == [[str(t["rank"]), " ".join(t["throw"]), " ".join(t["keep"])] for t in want]
            assert [r[5] for r in rows] == ["%.2f" % t["net"]["value"] for t in want]
            assert "Pegging and the board position are not counted" in page.text_content("#d-model")
            page.click("#card-QS")  # a seventh is not taken
            assert page.text_content("#d-picked").startswith("6 of 6 picked")
            page.select_option("#d-crib", "pone")  # an opponent's crib: the crib now counts against you
            theirs = json.loads(cli("discard", "--pone", "--json", *hand).stdout)["throws"]
            page.wait_for_function(  # (no row while the table is drawn anew)
                "document.querySelector('#d-throws tr.throw td:nth-child(2)')?.textContent === %s"
                % json.dumps(" ".join(theirs[0]["throw"])),
                timeout=PAGE_WAIT_MS,
            )
            page.select_option("#d-players", "3")  # five cards: the last picked is put back
            page.wait_for_function("document.querySelectorAll('#d-throws tr.throw').length === 5", timeout=PAGE_WAIT_MS)
            assert page.locator("#d-cards button.picked").count() == 5
            OUTPUT.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(OUTPUT / "discard.png"), full_page=True)
        finally:
            browser.close()
