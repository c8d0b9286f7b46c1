"""The README's picture of the simulated board's page (docs/board-page.png):
a simulated board started on a flash of its own, a few entries pressed on
its page's API, the page photographed by Debian's chromium through
Playwright. Run it after changing the page:
    .venv/bin/python tools/page_picture.py
"""

import json
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "host"))
from clirun import headless_sim  # noqa: E402  (the tests' one way to start a simulated board for a page)

OUT = ROOT / "docs" / "board-page.png"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def press(url, button, times=1):
    for _ in range(times):
        req = urllib.request.Request(
            url + "api/press",
            data=json.dumps({"button": button}).encode(),
            headers={"Content-Type": "application/json"},
        )
        urllib.request.urlopen(req, timeout=30).read()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        sim = subprocess.Popen(
            headless_sim(Path(tmp) / "flash"),
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            url = json.loads(sim.stdout.readline())["url"]
            for button, points in (("P2", 8), ("P1", 12), ("P2", 5), ("P1", 9)):
                press(url, button, points)
                press(url, "OK")
            press(url, "P1", 3)  # points being entered: they blink ahead of the peg
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium", args=FLAGS)
                page = browser.new_page(viewport={"width": 1100, "height": 515}, locale="en-GB")
                page.goto(url, wait_until="load")
                page.wait_for_selector("#btn-P1")
                page.wait_for_timeout(600)  # the page's first frames
                page.screenshot(path=str(OUT))
                browser.close()
        finally:
            sim.send_signal(signal.SIGINT)
            sim.wait(30)
    print("wrote %s" % OUT.relative_to(ROOT), file=sys.stderr)


if __name__ == "__main__":
    main()
