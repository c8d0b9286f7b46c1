# What a director's command on an event (a night, a tournament) is refused
# with: one kind a reason, each a usage error (exit status 2), the event
# left as it was.
from cribboard.errors import UsageError


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


class CutError(EventError):
    """A tournament's cut that cannot be made, or used, as asked (made already, its qualifying not in,
    too few entrants, players equal at the line)."""
