# What a club night's game is worth: game points for a win by how badly the
# loser lost, and what a bye gives. The default is the American Cribbage
# Congress's (the core's ACC scheme: 2 a win, 3 a skunk); a club sets its
# own parts (docs/decisions.md says what the ACC says of byes, and why the
# default bye is what it is).
import json
from dataclasses import asdict, dataclass

from cribboard.errors import UsageError
from cribboard.text.i18n import _
from cribcore.game import DOUBLE_SKUNK, PLAIN, SKUNK, TRIPLE_SKUNK
from cribcore.match import ACC, SCHEMES

_ACC = SCHEMES[ACC]
_MOST = 99  # game points a part may give: more is a typing slip, not a club's rule


@dataclass(frozen=True)
class Scheme:
    win: int = _ACC[PLAIN]
    skunk: int = _ACC[SKUNK]
    double_skunk: int = _ACC[DOUBLE_SKUNK]  # (a triple skunk counts as a double: no club scores it apart)
    loss: int = 0
    bye_points: int = _ACC[PLAIN]  # a bye: a win's points...
    bye_wins: bool = True  # ...counted as a game won...
    bye_spread: int = 0  # ...with no spread: no points were pegged

    def points(self, skunk_class: int) -> int:
        """Game points to the winner of a game whose loser's skunk class is skunk_class."""
        if skunk_class == PLAIN:
            return self.win
        if skunk_class == SKUNK:
            return self.skunk
        if skunk_class in (DOUBLE_SKUNK, TRIPLE_SKUNK):
            return self.double_skunk
        raise ValueError(skunk_class)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)


def from_json(text: str | None) -> Scheme:
    """A scheme as stored; the default for none."""
    return checked(**json.loads(text)) if text else Scheme()


def checked(**parts: object) -> Scheme:
    """A scheme from a club's parts, each checked (UsageError: exit status 2)."""
    known = Scheme.__dataclass_fields__
    for name, value in parts.items():
        if name not in known:
            raise UsageError(_("a scheme has no part %r") % name)
        if name == "bye_wins":
            if not isinstance(value, bool):
                raise UsageError(_("a bye counts as a game won or not (true or false), not %r") % (value,))
        elif not isinstance(value, int) or isinstance(value, bool) or not -_MOST <= value <= _MOST:
            raise UsageError(
                _("the scheme's %(part)s is a whole number from -99 to 99, not %(value)r")
                % {"part": name, "value": value}
            )
    scheme = Scheme(**parts)  # type: ignore[arg-type]  # (each part checked above)
    if not scheme.loss <= scheme.win <= scheme.skunk <= scheme.double_skunk:
        raise UsageError(
            _(
                "a scheme gives a loss no more than a win, a win no more than a skunk, a skunk no more than a "
                "double skunk: %s"
            )
            % scheme.to_json()
        )
    return scheme
