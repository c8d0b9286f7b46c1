# Commands that serve until stopped (`sim`, `live`, `serve`, `watch`): the
# signals that stop them, whatever a background job inherited, the address
# they serve on, and a browser opened where there is a screen.
import os
import sys
import webbrowser
from collections.abc import Callable
from typing import Any

from cribboard.cli.output import status
from cribboard.errors import UsageError
from cribboard.text.i18n import _


def stop_on_signals():
    """Ctrl-C, SIGTERM and SIGHUP (a kill, a closed terminal) end a serving
    command alike: its `finally` stops what it started. SIGINT is set too:
    a background job of a non-interactive shell (`cmd &`, `nohup`) starts
    with it ignored, and Python keeps that, so Ctrl-C would not stop it."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):  # Windows has no SIGHUP
            signal.signal(getattr(signal, name), stop)
    if hasattr(signal, "SIGUSR2"):  # what every thread is doing, on stderr, for one that seems stuck
        import faulthandler

        faulthandler.register(signal.SIGUSR2, all_threads=True, chain=False)


def open_browser(url: str, headless: bool) -> None:
    # On Linux with no display, webbrowser would start a text browser in this terminal.
    has_screen = sys.platform != "linux" or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if not headless and has_screen:
        webbrowser.open(url)


def serve_until_stopped(server: Any, say: Callable[[], None]) -> None:
    """Say where the server is (say()), then serve until Ctrl-C, SIGTERM or
    SIGHUP (the caller has called stop_on_signals), then stop the server
    (the caller's `finally` stops the rest). A signal that comes while it
    says so, the moment a script has read that it is up, stops it as
    cleanly as one later."""
    import time

    try:
        say()
        status(_("Press Ctrl-C to stop."))
        while True:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()


def http_address(http_addr: str) -> tuple[str, int]:
    host, _sep, port = http_addr.rpartition(":")
    if not host or not port.isdigit() or int(port) > 65535:
        raise UsageError(_("--http wants HOST:PORT, e.g. 127.0.0.1:8121"))
    return host, int(port)
