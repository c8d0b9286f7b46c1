# A night's games filed under their rounds and tables. A board's game is
# filed where the draw seats its two players (by the names on its tracks)
# at the table the board was at that round; one that fits no seat is flagged for the director, never
# counted: the right pair at another table, a pair the draw never made, a
# pair that played their game already, a game not for two. A result the
# director entered stands in for the board's. Filing is worked out from
# what is stored each time it is asked, so a game synced late, or a name
# fixed after a sync, files where it belongs.
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cribboard.night.draw import Seating
from cribboard.night.tables import Tables
from cribcore.game import skunk_class

BOARD = "board"
HAND = "hand"
BYE = "bye"

# Why a game was flagged.
WRONG_TABLE = "wrong_table"  # the pair is drawn to meet, at another table (or at a table without this board)
WRONG_PAIR = "wrong_pair"  # the draw never seats these two together
TWICE = "twice"  # the pair's game at this table is filed already
NOT_TWO = "not_two"  # a game for three, or for teams, or one name on both tracks


@dataclass(frozen=True)
class BoardGame:
    """A finished game a board reported, as the night reads it."""

    id: int
    board: str
    names: tuple[str, ...]  # by track
    scores: tuple[int, ...]  # by track
    winner: int  # a track
    target: int
    skunk: int


@dataclass(frozen=True)
class Entry:
    """A result the director entered (a board that died, a paper card, a flagged game taken)."""

    round: int
    players: tuple[str, str]
    scores: tuple[int, int]  # in players' order
    target: int = 121
    game_id: int | None = None  # a board's game it takes, if any


@dataclass(frozen=True)
class Result:
    round: int
    table: str | None  # None: a bye
    players: tuple[str, str | None]  # as drawn: the first deals first; (name, None) a bye
    scores: tuple[int, int]  # in players' order ((0, 0) for a bye)
    winner: str
    skunk: int  # the loser's skunk class
    target: int
    source: str  # BOARD, HAND or BYE
    game_id: int | None

    def margin(self) -> int:
        """The points the winner won by: the spread (what the loser lacked of the game)."""
        return self.target - min(self.scores) if self.source != BYE else 0


@dataclass(frozen=True)
class Flag:
    game_id: int
    board: str
    names: tuple[str, ...]
    reason: str
    round: int | None  # where the pair was drawn, or the round the table was on
    table: str | None  # the table the pair was drawn to (WRONG_TABLE), or the pair due here (WRONG_PAIR)
    due: tuple[str, ...] = ()  # the pair the draw seats at this table in that round
    at: str | None = None  # the table the board was at in that round (None: at none, or no round known)


@dataclass(frozen=True)
class Filed:
    results: dict[tuple[int, frozenset[str]], Result]  # by (round, pair); a bye's pair is its one name
    flags: tuple[Flag, ...]

    def of_round(self, number: int) -> list[Result]:
        return [r for (n, _pair), r in self.results.items() if n == number]


def pair(a: str, b: str | None) -> frozenset[str]:
    return frozenset((a,) if b is None else (a, b))


def file(
    rounds: Sequence[Sequence[Seating]], games: Iterable[BoardGame], entries: Sequence[Entry], tables: Tables
) -> Filed:
    """rounds: the draw (round 1 first); games: the boards' games stored since the night began, oldest
    first; entries: the director's results that stand (the last for a pair); tables: which board was at
    which table, round by round."""
    drawn: dict[frozenset[str], tuple[int, Seating]] = {}
    results: dict[tuple[int, frozenset[str]], Result] = {}
    for number, games_of_round in enumerate(rounds, 1):
        for g in games_of_round:
            if g.second is None:
                results[(number, pair(g.first, None))] = Result(
                    number, None, (g.first, None), (0, 0), g.first, 0, 0, BYE, None
                )
                continue
            drawn[pair(g.first, g.second)] = (number, g)  # (no pair is drawn twice)
    entered = {(e.round, pair(*e.players)) for e in entries}  # games played, whenever their results came in
    flags: list[Flag] = []
    for bg in games:
        names = bg.names
        if len(names) != 2 or len(bg.scores) != 2 or names[0] == names[1]:
            flags.append(Flag(bg.id, bg.board, names, NOT_TWO, None, None))
            continue
        both = pair(names[0], names[1])
        seat = drawn.get(both)
        if seat is None or tables.board_at(seat[1].table, seat[0]) != bg.board:
            flags.append(_misfit(bg, both, drawn, rounds, results.keys() | entered, tables))
            continue
        number, g = seat
        if (number, both) in results:
            flags.append(Flag(bg.id, bg.board, names, TWICE, number, g.table, at=g.table))
            continue
        by_name = dict(zip(names, bg.scores))
        results[(number, both)] = Result(
            number,
            g.table,
            (g.first, g.second),
            (by_name[g.first], by_name[g.second or ""]),
            names[bg.winner],
            bg.skunk,
            bg.target,
            BOARD,
            bg.id,
        )
    for e in entries:
        number = e.round
        both = pair(*e.players)
        at = drawn.get(both)
        if at is None or at[0] != number:
            continue  # (checked when it was entered; a later re-draw can leave it without a seat)
        g = at[1]
        by_name = dict(zip(e.players, e.scores))
        first, second = by_name[g.first], by_name[g.second or ""]
        winner = g.first if first > second else g.second or ""
        results[(number, both)] = Result(
            number,
            g.table,
            (g.first, g.second),
            (first, second),
            winner,
            skunk_class(min(first, second), e.target),
            e.target,
            HAND,
            e.game_id,
        )
    taken = {e.game_id for e in entries if e.game_id is not None}  # flagged, then counted by the director
    return Filed(results, tuple(f for f in flags if f.game_id not in taken))


def _misfit(
    bg: BoardGame,
    both: frozenset[str],
    drawn: dict[frozenset[str], tuple[int, Seating]],
    rounds: Sequence[Sequence[Seating]],
    played: set[tuple[int, frozenset[str]]],
    tables: Tables,
) -> Flag:
    """Why a board's game fits no seat: the pair drawn elsewhere, or not drawn at all (then who was due at
    the board's table: in the first round whose game there is not in yet, from the boards' games stored
    before it or entered by hand)."""
    if both in drawn:
        number, g = drawn[both]
        return Flag(bg.id, bg.board, bg.names, WRONG_TABLE, number, g.table, at=tables.table_of(bg.board, number))
    for number, games_of_round in enumerate(rounds, 1):
        at = tables.table_of(bg.board, number)
        for g in games_of_round:
            if at is not None and g.table == at and g.second is not None:
                if (number, pair(g.first, g.second)) not in played:
                    return Flag(bg.id, bg.board, bg.names, WRONG_PAIR, number, g.table, (g.first, g.second), at)
    return Flag(bg.id, bg.board, bg.names, WRONG_PAIR, None, None)


def round_in_play(rounds: Sequence[Sequence[Seating]], filed: Filed) -> int:
    """The first round with a game not in (len(rounds) + 1 once all are)."""
    for number, games_of_round in enumerate(rounds, 1):
        if any(g.second is not None and (number, pair(g.first, g.second)) not in filed.results for g in games_of_round):
            return number
    return len(rounds) + 1
