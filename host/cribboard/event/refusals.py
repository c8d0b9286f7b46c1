# What a director's command on an event (a night, a tournament) is refused
# with: one kind a reason, each a usage error (exit status 2), the event
# left as it was; and the two checks every director's command begins with
# (the event is there, and has not ended).
from typing import TypeVar

from cribboard.errors import UsageError
from cribboard.text.i18n import _

T = TypeVar("T")


class EventError(UsageError):
    """A director's command the event refuses; nothing in it changed."""


class Ended(EventError):
    """The event has ended: nothing more can change in it."""


class NotAGame(EventError):
    """Scores (or a target) no finished game has."""


class NotInPlay(EventError):
    """A result for a game the event does not have in play: the pair not drawn, no such match or game."""


class NoSuchEvent(EventError):
    """No night (or tournament) of that id, or none yet."""


class Unknown(EventError):
    """A player, table, board, round or game the event does not know (or a name that several share)."""


class Settled(EventError):
    """A change that would move a result already in (a board's game filed at its table)."""


class Outstanding(EventError):
    """An end asked for while games are not in (the director may end it as it stands, saying so)."""


class NotEnded(EventError):
    """A reopen of an event that has not ended."""


class Superseded(EventError):
    """A reopen of an event after another began: the boards and the pages are the later one's now."""


class CutError(EventError):
    """A tournament's cut that cannot be made, or used, as asked (made already, its qualifying not in,
    too few entrants, players equal at the line)."""


def found(row: T | None, event_id: int | None, there_is_no: str, none_yet: str) -> T:
    """The event's row as the store read it; NoSuchEvent if there is none: there_is_no (a message with the
    id asked for) or, with no id asked for, none_yet (how to begin the first)."""
    if row is None:
        raise NoSuchEvent(_(there_is_no) % event_id if event_id is not None else _(none_yet))
    return row


def still_open(ended_at: str | None, event_id: int, has_ended: str) -> None:
    """Ended (has_ended, a message with the event's id) once the event has ended: nothing more changes it."""
    if ended_at is not None:
        raise Ended(_(has_ended) % event_id)
