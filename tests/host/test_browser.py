# The board's page in a real browser: Debian's chromium driven by
# Playwright clicks a button, sees the peg move, and keeps a screenshot.
import os
import shutil
from pathlib import Path

import pytest
from deadline import WAIT_S
from playwright.sync_api import sync_playwright

from cribboard.link.client import BoardLink

OUTPUT = Path(__file__).resolve().parents[2] / "build" / "test-output" / "browser"
# How long a page may take to show what a test waits for: one event's deadline (deadline.WAIT_S), sized
# for a machine ten times slower, as every wait on another process is.
PAGE_WAIT_MS = WAIT_S * 1000
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DARK = "#2a1b0f"
NO_CHROMIUM = (
    "the page tests: chromium is not installed, and `make test` installs it only as root "
    "(sudo apt-get install --no-install-recommends chromium)"
)


def chromium_path():
    """Debian's chromium. Without it a page test is skipped (one line of the
    summary says how to get it), except in CI, where `make test` installed it."""
    path = shutil.which("chromium")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI: `make test` should have installed it")
        pytest.skip(NO_CHROMIUM)
    return path


# Both editions' boards (the `board` fixture: conftest.py).
pytestmark = pytest.mark.parametrize("board", ["micropython", "circuitpython"], indirect=True)


def fill(page, index):
    return page.get_attribute('circle[data-index="%d"]' % index, "fill")


def test_clicking_a_button_moves_the_peg(board, tmp_path):
    chromium = chromium_path()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 700})
            page.set_default_timeout(PAGE_WAIT_MS)  # (waits without a deadline of their own)
            page.goto(board.url, wait_until="load")
            page.wait_for_selector("#btn-P1")
            assert page.locator("circle").count() == 258
            assert fill(page, 1) == DARK  # track 1, hole 2: empty
            page.click("#btn-P1")
            page.click("#btn-P1")
            page.click("#btn-OK")
            # The peg in track 1's colour (waited for: until OK lands, the points blink on and off there).
            page.wait_for_function(
                "(() => { const rgb = document.querySelector('circle[data-index=\"1\"]').getAttribute('data-rgb');"
                " if (!rgb) return false; const [r, g, b] = rgb.split(',').map(Number); return r > g && r > b; })()",
                timeout=PAGE_WAIT_MS,
            )
            page.keyboard.press("Digit2")  # the keyboard works too: a point for track 2
            page.keyboard.press("Enter")
            page.wait_for_function(
                "document.querySelector('circle[data-index=\"59\"]').getAttribute('fill') !== '%s'" % DARK,
                timeout=PAGE_WAIT_MS,
            )
            # The scoreboard beside the LEDs: the names the host gave, the scores, the dealer, the labels.
            link = BoardLink(board.port)
            link.set_names(["Ann", "José <b>&amp;</b>"])  # markup in a name is shown as text
            link.close()
            page.wait_for_function(
                "[...document.querySelectorAll('.player-name')].map(e => e.textContent).join('|')"
                " === 'Ann|José <b>&amp;</b>'",
                timeout=PAGE_WAIT_MS,
            )
            page.wait_for_function(
                "[...document.querySelectorAll('.player-score')].map(e => e.textContent).join(' ') === '2 1'",
                timeout=PAGE_WAIT_MS,
            )
            assert page.locator(".player b").count() == 0
            assert page.text_content(".game-number").startswith("game 1, best of 3")
            assert page.text_content(".dealer-mark") == "dealer"
            labels = page.locator("svg text").all_text_contents()
            assert "street 1: 1-30" in labels
            assert "street 4: 91-120" in labels
            assert labels.count("5") == 1
            OUTPUT.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(OUTPUT / ("board-%s.png" % board.sim.edition)), full_page=True)
        finally:
            browser.close()
    assert (OUTPUT / ("board-%s.png" % board.sim.edition)).stat().st_size > 5000
