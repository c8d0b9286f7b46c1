# A board's finished game as an event reads it, and the check every result
# an event takes meets, whoever enters it (the director, and next a
# player's phone; a board's game met it on the board): a finished game, to
# one of the board's targets.
from dataclasses import dataclass

from cribboard.event.refusals import NotAGame
from cribboard.text.i18n import _
from cribcore.game import TARGETS


def check_finished(scores: tuple[int, int], target: int) -> None:
    """NotAGame unless scores are a finished game's to target: one of them the target, the other below it."""
    if target not in TARGETS:
        raise NotAGame(_("a game is to %s, not %d") % (" or ".join(str(t) for t in TARGETS), target))
    if max(scores) != target or not 0 <= min(scores) < target:
        raise NotAGame(
            _(
                "a finished game to %(target)d has one score of %(target)d and the other from 0 to %(below)d, not "
                "%(a)d and %(b)d"
            )
            % {"target": target, "below": target - 1, "a": scores[0], "b": scores[1]}
        )


@dataclass(frozen=True)
class BoardGame:
    """A finished game a board reported, as a night (or a tournament's playoffs) reads it."""

    id: int
    board: str
    names: tuple[str, ...]  # by track
    scores: tuple[int, ...]  # by track
    winner: int  # a track
    target: int
    skunk: int
