# Telling a board on USB who sits at it: a use case across the USB link and
# the events (a night's round, a tournament's playoff match). The board's id
# is asked, its seat found, the seat sent and what the board took checked.
# The commands (cli/night.py, cli/tournament.py) open the link and print
# the answer; a board on the club's WiFi is told with the server's answers.
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
    _seated(link, board, [night.roster.name(g.first), night.roster.name(g.second or 0)], None)
    return NightSeat(board, number, g.table, night.label(g.first), night.label(g.second))


def send_match(link: "BoardLink", t: "Tournament") -> MatchSeat:
    """Tell the board its playoff match: the pair and the match's length."""
    from cribboard.tournament import director

    board = board_at(link)
    seat = director.seating_of(t).get(board)
    if seat is None:
        raise UsageError(_("board %s is at no table with a playoff match on") % board)
    names, best_of = seat
    _seated(link, board, names, best_of)
    return MatchSeat(board, names, best_of)


def _seated(link: "BoardLink", board: str, names: list[str], best_of: int | None) -> None:
    """The board told its pair, track 1 first (and a playoff match's length), and what it took read back: a
    match under way on it keeps its own players (never renamed into the new pair's, its games never theirs),
    refused saying what it kept. A board from before seats (protocol 6) is given the names alone."""
    if not link.proto:
        link.hello()
    if link.proto < 6 and best_of is None:
        link.set_names(names)
        return
    link.seat(names, best_of)
    kept = link.state()
    settings = kept.get("settings")
    if kept.get("names") == names and (
        best_of is None or (isinstance(settings, dict) and settings.get("best_of") == best_of)
    ):
        return
    raise UsageError(
        _(
            "board %(board)s kept its match under way (%(kept)s): the new pair is seated once it is over, or "
            "cleared on the board (hold OK, menu item 2: new match); then send again"
        )
        % {"board": board, "kept": under_way(kept)}
    )


def under_way(state: dict[str, Any]) -> str:
    """A board's match as its state says it (read as its scoreboard): "Ed - Bo, best of 3: game 2 at 5-0,
    games 1-0"."""
    from cribboard.link.lines import LinkError
    from cribboard.web import scoreboard

    try:
        shown = scoreboard.view(state)
    except ValueError as e:  # (a board that lies about its state)
        raise LinkError(_("the board sent a state that is not a board's: %s") % ascii(str(e))[:80]) from None
    said = " - ".join(shown["players"])
    best_of = shown["standings"]["best_of"]
    if isinstance(best_of, int) and best_of > 1:
        said += _(", best of %d") % best_of
    said += _(": game %(game)d at %(score)s") % {"game": shown["game"], "score": "-".join(map(str, shown["scores"]))}
    if shown["game"] > 1:
        said += _(", games %s") % "-".join(map(str, shown["standings"]["wins"]))
    return said
