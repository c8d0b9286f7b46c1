# Real boards on a live scoreboard (`cribboard live`): each board's state is
# read over its USB link (STATE) and drawn as the board draws it
# (cribboard.web.boardstate); web/server.py serves them on one page with the scoreboard
# beside each.
import threading
from typing import Any

from cribboard.link.client import BoardLink
from cribboard.link.lines import LinkError
from cribboard.web.boardstate import SeenBoard, drawn
from cribcore.layoutfile import standard

POLL_S = 0.5


class LiveBoard(SeenBoard):
    """One real board on its serial port, asked for its state twice a second."""

    def __init__(self, port: str, poll_s: float = POLL_S) -> None:
        super().__init__(standard(2))
        self.port = port
        self.link = BoardLink(port)
        self.board = self.link.hello().get("board")
        self._error: str | None = None
        self._state: Any = None
        self._stop = threading.Event()
        self._poll_s = poll_s
        self.poll()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def poll(self) -> None:
        """Ask the board for its state; redraw if it changed."""
        try:
            state = self.link.state()
        except (LinkError, ValueError) as e:
            self._error = "the board on %s does not answer: %s" % (self.port, e)
            return
        self._error = None
        if state == self._state:
            return
        try:
            seen = drawn(state)
        except ValueError as e:
            self._error = "the board on %s reports a state this tool cannot read: %s" % (self.port, e)
            return
        self._state = state
        self.show(seen)

    def _run(self) -> None:
        while not self._stop.wait(self._poll_s):
            self.poll()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.link.close()

    def scoreboard(self) -> dict[str, Any] | None:
        if self._error:
            raise ValueError(self._error)
        return self._view
