# The boards on this server's page, by their live states: each board's
# last state (NetBoard, drawn only when a page asks for it), the version of
# it the page shows (a state only ever replaced by a later one), and the
# follower that reads, once a FOLLOW_S, the states other servers on the same
# database took, so several `serve` processes show one page.
import json
import threading
from collections.abc import Callable
from typing import Any

from cribboard import store
from cribboard.store.engine import DbError
from cribboard.store.pool import Pool
from cribboard.web.boardstate import SeenBoard, drawn

FOLLOW_S = 1.0  # how often a server reads which boards the others on its database heard (the page's lag)


class NetBoard(SeenBoard):
    """A board that reports over the network: its last live state, checked when it came (web.boardstate.checked)
    and drawn when a page asks for this board (its frame, its LEDs, its scoreboard): a server draws what
    is looked at, once a state, not every report of every board (nor, two servers on one database, each
    board's twice)."""

    def __init__(self, board: str) -> None:
        self._layout: dict[str, Any] = {}
        self._frames = 0
        self._later: dict[str, Any] | None = None
        self._drawing = threading.RLock()  # (showing a drawn state counts its frame: frames, settled again)
        super().__init__({})
        self.board = board

    def show_later(self, state: dict[str, Any]) -> None:
        with self._drawing:
            self._later = state

    def _settled(self) -> None:
        with self._drawing:
            state, self._later = self._later, None
            if state is None:
                return
            try:
                super().show(drawn(state))
            except (ValueError, OverflowError, AttributeError, RecursionError, TypeError):
                pass  # (checked when it came: one that no longer draws leaves the page as it was)

    @property
    def frames(self) -> int:
        self._settled()
        return self._frames

    @frames.setter
    def frames(self, value: int) -> None:
        self._frames = value

    @property
    def layout(self) -> dict[str, Any]:
        self._settled()
        return self._layout

    @layout.setter
    def layout(self, value: dict[str, Any]) -> None:
        self._layout = value

    def leds(self) -> list[tuple[int, int, int]]:
        self._settled()
        return super().leds()

    def scoreboard(self) -> dict[str, Any] | None:
        self._settled()
        return dict(self._view, board=self.board) if self._view else None


class LiveBoards:
    def __init__(self, pool: Pool, note: Callable[..., None]) -> None:
        """note(key, message, *args): a log line, as the server limits them."""
        self.pool = pool
        self._note = note
        self.boards: list[NetBoard] = []  # the page's, in the order they first reported
        self._by_id: dict[str, NetBoard] = {}
        self._shown: dict[str, int] = {}  # the version of each board's state on the page (store.club.keep_live)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._follower: threading.Thread | None = None

    def close(self) -> None:
        self._stop.set()
        if self._follower is not None:
            self._follower.join(FOLLOW_S * 10)

    def follow(self) -> None:
        """Show the boards other servers on the database heard too, polled every FOLLOW_S (the states'
        versions, then only the states that are new), from now until close()."""
        self.follow_once()
        self._follower = threading.Thread(target=self._follow, name="club-follow", daemon=True)
        self._follower.start()

    def _follow(self) -> None:
        while not self._stop.wait(FOLLOW_S):
            try:
                self.follow_once()
            except DbError as e:  # the database away: the next poll tries again, and the boards' 503s say so
                self._note("database", "could not read the boards' live states: %s", e)
            except Exception as e:  # anything else: said, and the page keeps following (it runs all season)
                self._note("follower", "could not show the boards' live states: %r", e)

    def follow_once(self) -> None:
        with self.pool.db() as db:
            versions = store.club.live_versions(db)
            with self._lock:
                newer = [b for b, v in versions.items() if v > self._shown.get(b, 0)]
            rows = store.club.live_states(db, newer)
        for row in rows:
            try:
                state = json.loads(row["state"])
            except (ValueError, RecursionError):
                continue  # (each was checked when it came: one that no longer reads is left as it was)
            if isinstance(state, dict):
                self.show(row["board"], int(row["version"]), state)

    def show(self, board: str, version: int, state: dict[str, Any]) -> None:
        """Put the board's state (checked) on the page, to draw when the page asks, unless the page has a
        later one already."""
        with self._lock:
            if version <= self._shown.get(board, 0):
                return
            self._shown[board] = version
            if board not in self._by_id:
                self._by_id[board] = NetBoard(board)
                self.boards.append(self._by_id[board])
            self._by_id[board].show_later(state)

    def views(self) -> dict[str, Any]:
        """Each reporting board's scoreboard, by its id (the night's page shows them)."""
        with self._lock:
            return {b.board: view for b in self.boards if (view := b.scoreboard()) is not None}
