# What each of the club's boards is told about who sits at it: the pair a
# night under way seats there in its round in play (track 1, who deals
# first, first), or a playoff match's pair and length in any tournament in
# its playoffs. The club's server is given a Seating and asks it on every
# board's answer; it reads the events whole again only once the database's
# change mark says something they are made of changed.
import threading
from collections.abc import Callable
from typing import Any

from cribboard.night import director as nights
from cribboard.store import changes
from cribboard.store import nights as kept_nights
from cribboard.store import tournaments as kept_tournaments
from cribboard.store.engine import Database
from cribboard.tournament import director as tournaments

Told = dict[str, dict[str, Any]]  # board: {"names": [track 1's, track 2's]} and, for a match, "best_of"


def told(db: Database) -> Told:
    """Every board's seat as the events stand now (a playoff match's over a night's, at one board)."""
    out: Told = {}
    row = kept_nights.night(db)
    if row is not None and row["ended_at"] is None:
        night = nights.load(db, row["id"])
        for board in night.tables.boards():
            seat = night.seat_at(board)
            if seat is not None:
                out[board] = {"names": [night.roster.name(seat[1].first), night.roster.name(seat[1].second or 0)]}
    for t in kept_tournaments.in_playoffs(db):
        for board, (names, best_of) in tournaments.seating_of(tournaments.load(db, t["id"])).items():
            out[board] = {"names": names, "best_of": best_of}
    return out


class Seating:
    """The boards' seats, read again from the events only after they changed (one small read a call to
    tell): what a server's request threads share."""

    def __init__(self, read: Callable[[Database], Told] = told) -> None:
        self._read = read
        self._kept: tuple[changes.Mark, Told] | None = None
        self._lock = threading.Lock()
        self.reads = 0  # how many times the events were read whole (the tests and benches count them)

    def __call__(self, db: Database) -> Told:
        mark = changes.mark(db)  # (before the events: a change in between reads them again next time)
        with self._lock:
            kept = self._kept
        if kept is not None and kept[0] == mark:
            return kept[1]
        seats = self._read(db)
        with self._lock:
            self._kept = (mark, seats)
            self.reads += 1
        return seats
