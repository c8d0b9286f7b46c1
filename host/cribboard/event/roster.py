# Who is in an event (a night, a tournament's qualifying and its playoffs):
# each player is a number of the night (from 1, in the order they came)
# with a name. The number is the player: two may share a
# name (two John Smiths can play), and the draw, the results and the
# standings know players by number. A player is shown by name, and by name
# and number ("John Smith #3") where the name is shared; a director names
# one by name, or by "#3" where the name is shared.
from collections.abc import Iterable, Mapping

from cribboard.event.refusals import Unknown
from cribboard.text.i18n import _


class Roster:
    def __init__(self, names: Mapping[int, str], night: int = 0, tournament: int | None = None) -> None:
        self.names = dict(names)  # by number
        self.night = night  # its id, for what is said
        self.tournament = tournament  # the tournament whose qualifying it is, for what a tournament's command says
        seen: dict[str, int] = {}
        for name in self.names.values():
            seen[name] = seen.get(name, 0) + 1
        self._shared = {name for name, count in seen.items() if count > 1}

    def name(self, number: int) -> str:
        return self.names[number]

    def label(self, number: int | None) -> str:
        """The player as shown: the name, with the number where the name is shared ("" for no one)."""
        if number is None:
            return ""
        name = self.names[number]
        return "%s #%d" % (name, number) if name in self._shared else name

    def shared(self) -> dict[str, list[int]]:
        """Each name two or more players share, and their numbers."""
        out: dict[str, list[int]] = {}
        for number, name in self.names.items():
            if name in self._shared:
                out.setdefault(name, []).append(number)
        return out

    def numbers_of(self, name: str) -> list[int]:
        return [n for n, has in self.names.items() if has == name]

    def find(self, text: str, among: Iterable[int] | None = None, not_among: str | None = None) -> int:
        """The player named so ("John Smith", or "#3", or "John Smith #3"), among these numbers (all of the
        event's if none are given); Unknown, naming who could be meant if no one or several are (not_among:
        what is said of a name that is none of those, with %(name)s, %(players)s and the event's %(id)d)."""
        pool = list(self.names) if among is None else list(among)
        numbered = _number(text)
        if numbered is not None:
            number, name = numbered
            if number in pool and (name is None or self.names[number] == name):
                return number
        named = [n for n in pool if self.names[n] == text]
        if len(named) == 1:
            return named[0]
        event = {"night": self.night, "id": self.tournament or self.night}
        if named:
            raise Unknown(
                (
                    _("%(name)s is %(count)d players in tournament %(id)d: name one as %(which)s")
                    if self.tournament
                    else _("%(name)s is %(count)d players in night %(night)d: name one as %(which)s")
                )
                % {"name": text, "count": len(named), "which": _(" or ").join("#%d" % n for n in named), **event}
            )
        like = [n for n in pool if self.names[n].casefold() == text.casefold()]
        if like:
            raise Unknown(
                (
                    _("%(name)s is not in tournament %(id)d: %(like)s is (names are written as drawn)")
                    if self.tournament
                    else _("%(name)s is not in night %(night)d: %(like)s is (names are written as drawn)")
                )
                % {"name": text, "like": self.label(like[0]), **event}
            )
        players = ", ".join(self.label(n) for n in pool)
        if not_among is not None:  # (those named are some of the event's: say which)
            raise Unknown(_(not_among) % {"name": text, "players": players, **event})
        raise Unknown(
            (
                _("%(name)s is not in tournament %(id)d (its entrants: %(players)s)")
                if self.tournament
                else _("%(name)s is not in night %(night)d (its players: %(players)s)")
            )
            % {"name": text, "players": players, **event}
        )


def _number(text: str) -> tuple[int, str | None] | None:
    """ "#3" or "John Smith #3" as (3, None) or (3, "John Smith"); None if the text ends in no number."""
    head, mark, digits = text.rpartition("#")
    if not mark or not digits.isdigit() or not digits.isascii():
        return None
    return int(digits), head.strip() or None
