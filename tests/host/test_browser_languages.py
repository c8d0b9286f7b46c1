# The simulated board's page in the reader's language: chosen from the
# browser's Accept-Language, changed with the page's selector and
# remembered; checked in Debian's chromium (Playwright) in es, it and de.
import shutil

from playwright.sync_api import sync_playwright
from test_browser import CHROMIUM_FLAGS

SAID = {  # what each language shows: the board's caption, the discard panel, its table, the scoreboard
    "es-ES": ("tablero simulado", "Descarte", "puesto", "calle 1: 1-30", "partida 1, al mejor de 3"),
    "it-IT": ("tavola simulata", "Scarto", "posto", "strada 1: 1-30", "partita 1, al meglio di 3"),
    "de-DE": ("simuliertes Board", "Abwurf", "Platz", "Straße 1: 1-30", "Spiel 1, Best of 3"),
}




def shown(page):
    page.wait_for_function("document.getElementById('what').textContent !== ''", timeout=10000)
    page.wait_for_selector("#card-5H")
    for name in ("5H", "5S", "JD", "4C", "6H", "KH"):
        page.click("#card-" + name)
    page.wait_for_function("document.querySelectorAll('#d-throws tr.throw').length === 15", timeout=10000)
    page.wait_for_function("document.querySelector('.game-number') !== null", timeout=10000)
    streets = [t for t in page.locator("svg text").all_text_contents() if t.endswith(" 1: 1-30")]
    return (page.text_content("#what"), page.text_content("#discard h2"), page.text_content("#d-throws th"),
            streets[0], page.text_content(".game-number"))


def test_the_page_speaks_the_browsers_language_and_remembers_the_readers_choice(board):
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        try:
            for locale, words in SAID.items():
                context = browser.new_context(locale=locale, viewport={"width": 1100, "height": 1400})
                page = context.new_page()
                page.goto(board.url, wait_until="load")
                assert shown(page) == words, locale
                assert page.evaluate("document.documentElement.lang") == locale[:2]
                assert page.input_value("#lang") == locale[:2]
                context.close()
            context = browser.new_context(locale="es-ES", viewport={"width": 1100, "height": 1400})
            page = context.new_page()
            page.goto(board.url, wait_until="load")
            page.wait_for_function("document.getElementById('what').textContent === 'tablero simulado'",
                                   timeout=10000)
            page.select_option("#lang", "de")  # the reader's choice over the browser's
            page.wait_for_function("document.getElementById('what').textContent === 'simuliertes Board'",
                                   timeout=10000)
            page.goto(board.url, wait_until="load")  # remembered on the next visit
            assert shown(page) == SAID["de-DE"]
            context.close()
        finally:
            browser.close()
