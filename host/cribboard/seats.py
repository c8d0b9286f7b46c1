# Telling a board on USB who sits at it: a use case across the USB link and
# the events (a night's round, a tournament's playoff match). The board's id
# is asked, its seat found, the seat sent and what the board took checked.
# The commands (cli/night.py, cli/tournament.py) open the link and print
# the answer; a board on the club's WiFi is told with the server's answers.
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cribboard.errors import UsageError
from cribboard.text.i18n import _

if TYPE_CHECKING:
    from cribboard.link.client import BoardLink
    from cribboard.night.director import Night
    from cribboard.tournament.director import Tournament


@dataclass(frozen=True)
class NightSeat:
    board: str
    round: int
    table: str | None
    first: str  # deals first, on track 1 (as the night labels the player)
    second: str


@dataclass(frozen=True)
class MatchSeat:
    board: str
    names: list[str]  # the higher seed first, on track 1
    best_of: int


def board_at(link: "BoardLink") -> str:
    """The id of the board at the other end of link."""
    return str(link.hello().get("board", ""))


def send_night(link: "BoardLink", night: "Night", round_no: int | None) -> NightSeat:
    """Give the board its two players for the round (the round in play if None)."""
    board = board_at(link)
    seat = night.seat_at(board, round_no)
    number = round_no or night.round_now()
    if seat is None and not night.over() and night.tables.table_of(board, number) is None:
        raise UsageError(
            _(
                "board %(board)s is at no table of night %(night)d in round %(round)d: put it at one (`cribboard "
                "night table TABLE %(board)s`; a board new to this database is synced once first: `cribboard sync`)"
            )
            % {"board": board, "night": night.id, "round": number}
        )
    if seat is None:
        raise UsageError(
            _("board %(board)s has no game in round %(round)d of night %(night)d")
            % {"board": board, "round": round_no or night.round_now(), "night": night.id}
        )
    number, g = seat
    link.set_names([night.roster.name(g.first), night.roster.name(g.second or 0)])
    return NightSeat(board, number, g.table, night.label(g.first), night.label(g.second))


def send_match(link: "BoardLink", t: "Tournament") -> MatchSeat:
    """Tell the board its playoff match: the pair and the match's length. A board with points entered in
    its game keeps it (its game is never given to the match): refused, saying what it kept."""
    from cribboard.tournament import director

    board = board_at(link)
    seat = director.seating_of(t).get(board)
    if seat is None:
        raise UsageError(_("board %s is at no table with a playoff match on") % board)
    names, best_of = seat
    taken = link.seat(names, best_of)
    if taken != names:
        raise UsageError(
            _("board %(board)s kept %(taken)s: its game has points entered (the match is seated once it is over)")
            % {"board": board, "taken": " - ".join(taken)}
        )
    return MatchSeat(board, names, best_of)
