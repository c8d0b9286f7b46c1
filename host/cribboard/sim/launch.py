# Running a simulated board, as `cribboard sim` does: its flash made ready
# (the firmware, the pin map and layout; held for this process alone), its
# page's server bound, the board started, and the board announced so that
# commands given no --port find it; and all of it stopped again, whatever
# ends it. The command parses and prints; this is what happens between.
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from cribboard.errors import CribboardError
from cribboard.sim import registry, simulator
from cribboard.text.i18n import _
from cribboard.web.server import make_server


def prepared(flash_dir: Path, board: str, layout: str, given: set[str], keep_firmware: bool, edition: str) -> IO[Any]:
    """The flash folder checked against what was given (--board, --layout), locked for this process (the
    lock is returned: keep it open until the end) and seeded with the firmware unless kept."""
    try:
        simulator.check_config(flash_dir, board, layout, given)
        lock = simulator.lock_flash(flash_dir)
        simulator.seed_flash(flash_dir, board, layout, refresh=not keep_firmware, edition=edition)
    except OSError as e:
        raise CribboardError(_("cannot prepare the simulated flash %s: %s") % (flash_dir, e)) from None
    return lock


@dataclass
class Running:
    board: simulator.Simulator
    server: Any  # the page's (cribboard.web.server)
    announced: Any  # what registry.withdraw takes back

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return "http://%s:%d/" % (host, port)

    def stop(self) -> None:
        registry.withdraw(self.announced)
        self.server.shutdown()
        self.board.stop()


def launched(flash_dir: Path, link: str | None, edition: str, host: str, port: int) -> Running | None:
    """The board running, its page served on host:port (any free port if that one is taken: the
    server's address says which); None if it was stopped (Ctrl-C) while it started."""
    board = simulator.Simulator(flash_dir, link=link, edition=edition)
    try:
        server = make_server(board, host, port, fallback=True)  # bound before the board starts
    except OSError as e:
        raise CribboardError(
            _("cannot serve the board's page on %s: %s") % ("%s:%d" % (host, port), e.strerror or e)
        ) from None
    try:
        board.start()
    except BaseException as e:
        server.shutdown()
        board.stop()
        if isinstance(e, KeyboardInterrupt):
            return None
        if isinstance(e, OSError):
            raise CribboardError(
                _("the simulated board did not start: %s (its log: %s)") % (e.strerror or e, board.log_path)
            ) from None
        raise
    return Running(board, server, registry.announce(str(board.port), flash_dir))
