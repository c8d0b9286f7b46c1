# The simulated board's page in the reader's language: chosen from the
# browser's Accept-Language, changed with the page's selector and
# remembered; checked in Debian's chromium (Playwright) in es, it and de.
from pathlib import Path

from playwright.sync_api import sync_playwright
from test_browser import CHROMIUM_FLAGS, PAGE_WAIT_MS, chromium_path

ROOT = Path(__file__).resolve().parents[2]

SAID = {  # what each language shows: the board's caption, the discard panel, its table, the scoreboard
    "es-ES": ("tablero simulado", "Descarte", "puesto", "calle 1: 1-30", "partida 1, al mejor de 3"),
    "it-IT": ("plancia simulata", "Scarto", "posto", "strada 1: 1-30", "partita 1, al meglio di 3"),
    "de-DE": ("simuliertes Brett", "Abwurf", "Platz", "Straße 1: 1-30", "Spiel 1, höchstens 3 Spiele"),
}


def shown(page):
    page.wait_for_function("document.getElementById('what').textContent !== ''", timeout=PAGE_WAIT_MS)
    page.wait_for_selector("#card-5H")
    for name in ("5H", "5S", "JD", "4C", "6H", "KH"):
        page.click("#card-" + name)
    page.wait_for_function("document.querySelectorAll('#d-throws tr.throw').length === 15", timeout=PAGE_WAIT_MS)
    page.wait_for_function("document.querySelector('.game-number') !== null", timeout=PAGE_WAIT_MS)
    streets = [t for t in page.locator("svg text").all_text_contents() if t.endswith(" 1: 1-30")]
    return (
        page.text_content("#what"),
        page.text_content("#discard h2"),
        page.text_content("#d-throws th"),
        streets[0],
        page.text_content(".game-number"),
    )


def test_the_page_speaks_the_browsers_language_and_remembers_the_readers_choice(board):
    chromium = chromium_path()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        try:
            for locale, words in SAID.items():
                context = browser.new_context(locale=locale, viewport={"width": 1100, "height": 1400})
                page = context.new_page()
                page.set_default_timeout(PAGE_WAIT_MS)  # (waits without a deadline of their own)
                page.goto(board.url, wait_until="load")
                assert shown(page) == words, locale
                assert page.evaluate("document.documentElement.lang") == locale[:2]
                assert page.input_value("#lang") == locale[:2]
                context.close()
            context = browser.new_context(locale="es-ES", viewport={"width": 1100, "height": 1400})
            page = context.new_page()
            page.set_default_timeout(PAGE_WAIT_MS)  # (waits without a deadline of their own)
            page.goto(board.url, wait_until="load")
            page.wait_for_function(
                "document.getElementById('what').textContent === 'tablero simulado'", timeout=PAGE_WAIT_MS
            )
            page.select_option("#lang", "de")  # the reader's choice over the browser's
            page.wait_for_function(  # (the page reloads itself in the new language: no #what meanwhile)
                "document.getElementById('what')?.textContent === 'simuliertes Brett'", timeout=PAGE_WAIT_MS
            )
            page.goto(board.url, wait_until="load")  # remembered on the next visit
            assert shown(page) == SAID["de-DE"]
            context.close()
        finally:
            browser.close()


# What does not fit: the page wider than the window, a label outside the
# board's drawing, a text outside its element's box or clipped by it.
MISFITS = """() => {
  const out = [], root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) out.push(["the page is wider than the window", root.scrollWidth]);
  for (const svg of document.querySelectorAll("svg")) {
    const v = svg.viewBox.baseVal;
    for (const text of svg.querySelectorAll("text")) {
      const b = text.getBBox();
      if (b.x < v.x || b.y < v.y || b.x + b.width > v.x + v.width || b.y + b.height > v.y + v.height)
        out.push(["outside the board", text.textContent]);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest("svg, [hidden], script, style, select")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect(), box = el.getBoundingClientRect();
    if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
      out.push(["outside its box", el.tagName, el.id, node.textContent.slice(0, 40)]);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible")
      out.push(["clipped", el.tagName, el.id, node.textContent.slice(0, 40)]);
  }
  return out;
}"""

# Every string a reader can see: the text, the board's labels, the tooltips, the window's title.
VISIBLE = """() => [document.title, document.body.innerText,
  ...[...document.querySelectorAll("[title]")].map(e => e.title),
  ...[...document.querySelectorAll("svg title")].map(e => e.textContent)].join("\\n")"""


def _at_the_table(page):
    """The page with its scoreboard, the discard panel's throws and a discard error shown."""
    shown(page)
    page.wait_for_function("document.querySelector('#d-throws tr.throw[title]') !== null", timeout=PAGE_WAIT_MS)
    page.select_option("#d-players", "3")  # five cards for three players: the six picked are cut to five
    page.wait_for_function("document.querySelectorAll('#d-throws tr.throw').length === 5", timeout=PAGE_WAIT_MS)


def test_every_text_fits_its_box_and_no_english_is_left_in_any_language(board):
    from english import english_runs, vocabulary

    chromium = chromium_path()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        try:
            for locale in ("en-GB", *SAID):
                words = vocabulary(locale[:2]) if locale[:2] != "en" else set()
                for width in (1100, 760):  # a laptop's window, a tablet's
                    context = browser.new_context(locale=locale, viewport={"width": width, "height": 1400})
                    page = context.new_page()
                    page.set_default_timeout(PAGE_WAIT_MS)  # (waits without a deadline of their own)
                    page.goto(board.url, wait_until="load")
                    _at_the_table(page)
                    assert page.evaluate(MISFITS) == [], (locale, width)
                    text = page.evaluate(VISIBLE)
                    assert len(text) > 500
                    assert english_runs(text, words, least=1) == [], (locale, text)
                    context.close()
        finally:
            browser.close()


# The page's words a language keeps as English writes them: the game's own
# terms (skunk, piquet's partie) and loanwords.
KEPT_AS_IN_ENGLISH = {
    "es": {"skunk", "triple skunk"},
    "it": {"skunk"},
    "de": {"skunk", "partie", "E[hand]"},
}


def test_no_word_of_the_page_is_left_in_english_by_its_translation():
    from english import catalogues

    from cribboard.text.i18n import page_messages

    messages = page_messages((ROOT / "host" / "cribboard" / "web" / "sim.html").read_text(encoding="utf-8"))
    assert len(messages) > 40
    for language, kept in KEPT_AS_IN_ENGLISH.items():
        own = catalogues._read(catalogues.LOCALE / language / "LC_MESSAGES" / "cribboard.po", language)
        same = {m for m in messages if own[m].string.lower() == m.lower()}
        assert same == kept, (language, same ^ kept)


def test_a_press_the_board_did_not_take_is_said_on_the_page_in_its_language(board):
    from cribboard.text import i18n

    refused = "the board did not take the press: is its program running (not stopped at its REPL, or being flashed)?"
    german = i18n.translation("de").gettext(refused)
    assert german != refused
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        try:
            page = browser.new_context(locale="de-DE", viewport={"width": 1100, "height": 1400}).new_page()
            page.set_default_timeout(PAGE_WAIT_MS)  # (waits without a deadline of their own)
            page.goto(board.url, wait_until="load")
            page.wait_for_selector("#btn-OK")
            # The server's answer to a press the board did not take (a board stopped at its REPL), as it is.
            page.route(
                "**/api/press",
                lambda route: route.fulfill(
                    status=400, content_type="application/json", body='{"error": "%s"}' % refused
                ),
            )
            page.click("#btn-OK")
            page.wait_for_function("document.getElementById('notice-0').textContent !== ''", timeout=PAGE_WAIT_MS)
            assert page.text_content("#notice-0") == german
            page.unroute("**/api/press")
            page.click("#btn-P1")  # a press the board takes clears what the last one said
            page.wait_for_function("document.getElementById('notice-0').textContent === ''", timeout=PAGE_WAIT_MS)
        finally:
            browser.close()
