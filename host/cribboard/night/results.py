# A night's games filed under their rounds and tables. A board's game is
# filed at the table the board was at: in the first round whose pair seated
# there has the names on the game's tracks and whose game there is not in
# yet (players are numbers of the night, a game has names: where the two
# share a name, track 1 is who deals first, as the board was told). One
# that fits no seat is flagged for the director, never counted: the right
# names at another table, names the draw never seats there, a game
# there in already, a game not for two. A result the director entered
# stands in for the board's; where it is a scorecard that disagrees with
# the board's game of the same seat, the two are flagged (crosschecked).
# The two players' phones agreeing on a result is a scorecard too
# (cribboard.event.claims), and the director's own entry stands over it;
# their claims that wait or disagree are kept beside the results until the
# seat's result is in. Filing is worked out
# from what is stored each time it is asked, so a game synced late, or a
# name fixed after a sync, files where it belongs.
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from cribboard.event import claims as claiming
from cribboard.event.claims import AGREED, Claim, Settled
from cribboard.event.games import BoardGame
from cribboard.event.sources import BOARD, BYE, HAND, PHONE
from cribboard.event.tables import Tables
from cribboard.night.draw import Seating
from cribcore.game import skunk_class

# Why a game was flagged.
WRONG_TABLE = "wrong_table"  # the pair is drawn to meet, at another table (or at a table without this board)
WRONG_PAIR = "wrong_pair"  # the draw never seats these two together
TWICE = "twice"  # the pair's game at this table is filed already
NOT_TWO = "not_two"  # a game for three, or for teams
CROSSCHECK = "crosscheck"  # the pair's scorecard, entered by hand, says otherwise (it is what counts)


@dataclass(frozen=True)
class Entry:
    """A result entered: by the director (a board that died, a paper card, a flagged game taken), or by
    the two players' phones (one entered it, the other confirmed it)."""

    round: int
    players: tuple[int, int]
    scores: tuple[int, int]  # in players' order
    target: int = 121
    game_id: int | None = None  # a board's game it takes, if any
    source: str = HAND  # or PHONE
    entered_by: int | None = None  # PHONE: the player who entered it, and the one who confirmed it
    confirmed_by: int | None = None


@dataclass(frozen=True)
class Result:
    round: int
    table: str | None  # None: a bye
    players: tuple[int, int | None]  # as drawn: the first deals first; (player, None) a bye
    scores: tuple[int, int]  # in players' order ((0, 0) for a bye)
    winner: int
    skunk: int  # the loser's skunk class
    target: int
    source: str  # BOARD, HAND, PHONE or BYE
    game_id: int | None
    entered_by: int | None = None  # PHONE: the player who entered it, and the one who confirmed it
    confirmed_by: int | None = None

    def margin(self) -> int:
        """The points the winner won by: the spread (what the loser lacked of the game)."""
        return self.target - min(self.scores) if self.source != BYE else 0


@dataclass(frozen=True)
class Flag:
    game_id: int
    board: str
    names: tuple[str, ...]
    reason: str
    round: int | None  # where the names were drawn, or the round the table was on
    table: str | None  # the table the names were drawn to (WRONG_TABLE), or the pair due here (WRONG_PAIR)
    due: tuple[int, ...] = ()  # the pair the draw seats at this table in that round
    at: str | None = None  # the table the board was at in that round (None: at none, or no round known)
    card: tuple[int, int] | None = None  # CROSSCHECK: the scorecard's scores, in the seat's order


@dataclass(frozen=True)
class Filed:
    results: dict[tuple[int, frozenset[int]], Result]  # by (round, pair); a bye's pair is its one player
    flags: tuple[Flag, ...]
    claims: dict[tuple[int, frozenset[int]], Settled] = field(default_factory=dict)  # by (round, pair): the
    # phones' claims of a seat whose result is not in (WAITING, DISAGREE, REFUSED)

    def disputes(self) -> list[Settled]:
        """The seats whose phones disagree, or where one refused the other's claim: the director's to settle."""
        return [c for c in self.claims.values() if c.state in (claiming.DISAGREE, claiming.REFUSED)]

    def of_round(self, number: int) -> list[Result]:
        return [r for (n, _pair), r in self.results.items() if n == number]


def pair(a: int, b: int | None) -> frozenset[int]:
    return frozenset((a,) if b is None else (a, b))


def file(
    rounds: Sequence[Sequence[Seating]],
    games: Iterable[BoardGame],
    entries: Sequence[Entry],
    tables: Tables,
    names: Mapping[int, str],
    claims: Iterable[Claim] = (),
) -> Filed:
    """rounds: the draw (round 1 first); games: the boards' games stored since the night began, oldest
    first; entries: the director's results that stand (the last for a pair); tables: which board was at
    which table, round by round; names: each player's name, by number; claims: the players' phones' words
    on their games (a claim's game is its round), oldest first."""
    games = list(games)
    settled = claiming.settle(claims)
    entries = [_agreed(s) for s in settled.values() if s.state == AGREED] + list(entries)  # (the director's last)
    seats = _Seats(rounds, tables, names)
    results: dict[tuple[int, frozenset[int]], Result] = {}
    for number, games_of_round in enumerate(rounds, 1):
        for g in games_of_round:
            if g.second is None:
                results[(number, pair(g.first, None))] = Result(
                    number, None, (g.first, None), (0, 0), g.first, 0, 0, BYE, None
                )
    entered = {(e.round, pair(*e.players)) for e in entries}  # games played, whenever their results came in
    flags: list[Flag] = []
    for bg in games:
        if len(bg.names) != 2 or len(bg.scores) != 2:
            flags.append(Flag(bg.id, bg.board, bg.names, NOT_TWO, None, None))
            continue
        here = seats.at_board(bg.board, bg.names)
        open_seats = [(number, g) for number, g in here if (number, pair(g.first, g.second)) not in results]
        if not open_seats:
            if here:
                number, g = here[-1]
                flags.append(Flag(bg.id, bg.board, bg.names, TWICE, number, g.table, at=g.table))
            else:
                flags.append(seats.misfit(bg, results.keys() | entered))
            continue
        # (a seat whose result was entered by hand comes after one with none: namesakes can sit at one
        # table in two rounds, and a board's late game of the first must not take the second's place)
        number, g = min(open_seats, key=lambda s: ((s[0], pair(s[1].first, s[1].second)) in entered, s[0]))
        on_track = _by_track(g, names, bg.names)
        by_player = dict(zip(on_track, bg.scores))
        scores = (by_player[g.first], by_player[g.second or 0])
        winner = on_track[bg.winner]
        results[(number, pair(g.first, g.second))] = Result(
            number, g.table, (g.first, g.second), scores, winner, bg.skunk, bg.target, BOARD, bg.id
        )
    from_board = {key: r for key, r in results.items() if r.source == BOARD}
    for e in entries:
        number = e.round
        both = pair(*e.players)
        seat = seats.drawn.get((number, both))
        if seat is None:
            continue  # (checked when it was entered; a later re-draw can leave it without a seat)
        g = seat
        by_player = dict(zip(e.players, e.scores))
        first, second = by_player[g.first], by_player[g.second or 0]
        winner = g.first if first > second else g.second or 0
        board = from_board.get((number, both))
        if board is not None:  # (the last card entered for the seat is the one crosschecked)
            flags = [f for f in flags if not (f.reason == CROSSCHECK and f.game_id == board.game_id)]
            if board.game_id != e.game_id and board.scores != (first, second):
                flags.append(_crosscheck(board, (first, second), games))
        results[(number, both)] = Result(
            number,
            g.table,
            (g.first, g.second),
            (first, second),
            winner,
            skunk_class(min(first, second), e.target),
            e.target,
            e.source,
            e.game_id,
            e.entered_by,
            e.confirmed_by,
        )
    taken = {e.game_id for e in entries if e.game_id is not None}  # flagged, then counted by the director
    open_claims = {
        key: s
        for ((number, _match, _game), both), s in settled.items()
        if s.state != AGREED and (key := (number, both)) in seats.drawn and key not in results
    }
    return Filed(results, tuple(f for f in flags if f.game_id not in taken), open_claims)


def _agreed(s: Settled) -> Entry:
    """The result two phones agree on, as an entry of the seat (its game is the round)."""
    assert s.second is not None
    c = s.first
    assert c.scores is not None  # (agreed: both claimed a result)
    return Entry(c.round, (c.by, c.other), c.scores, c.target, None, PHONE, c.by, s.second.by)


def _crosscheck(board: Result, card: tuple[int, int], games: Iterable[BoardGame]) -> Flag:
    """A board's game that a scorecard entered for its seat contradicts."""
    bg = next(g for g in games if g.id == board.game_id)
    return Flag(bg.id, bg.board, bg.names, CROSSCHECK, board.round, board.table, at=board.table, card=card)


def _by_track(g: Seating, names: Mapping[int, str], on_tracks: Sequence[str]) -> tuple[int, int]:
    """Who played on each track: by the names on the tracks, or by the seat (track 1 deals first, as the
    board was told) where the two share a name."""
    if on_tracks[0] == on_tracks[1]:
        return g.first, g.second or 0
    return (g.first, g.second or 0) if names[g.first] == on_tracks[0] else (g.second or 0, g.first)


class _Seats:
    """The draw looked up: the game at each table in each round, and at each board by its names."""

    def __init__(self, rounds: Sequence[Sequence[Seating]], tables: Tables, names: Mapping[int, str]) -> None:
        self.rounds = rounds
        self.tables = tables
        self.names = names
        self.drawn: dict[tuple[int, frozenset[int]], Seating] = {}
        self.at_table: dict[tuple[int, str], Seating] = {}
        self.board_table: dict[tuple[str, int], str] = {}  # (board, round): the table it was at
        self.by_names: dict[tuple[str, ...], list[tuple[int, Seating]]] = {}  # the pair's names, sorted
        for number, games_of_round in enumerate(rounds, 1):
            for table, board in tables.seats(number):
                if board is not None:
                    self.board_table.setdefault((board, number), table)
            for g in games_of_round:
                if g.second is None or g.table is None:
                    continue
                self.drawn[(number, pair(g.first, g.second))] = g
                self.at_table[(number, g.table)] = g
                self.by_names.setdefault(self._key((names[g.first], names[g.second])), []).append((number, g))

    @staticmethod
    def _key(names: Sequence[str]) -> tuple[str, ...]:
        return tuple(sorted(names))

    def at_board(self, board: str, names: Sequence[str]) -> list[tuple[int, Seating]]:
        """The seats, round by round, with these names at the table the board was at that round."""
        return [
            (number, g)
            for number, g in self.by_names.get(self._key(names), ())
            if self.board_table.get((board, number)) == g.table
        ]

    def misfit(self, bg: BoardGame, played: set[tuple[int, frozenset[int]]]) -> Flag:
        """Why a board's game fits no seat: its names drawn at another table, or not drawn at all (then who
        was due at the board's table: in the first round whose game there is not in yet, from the boards'
        games stored before it or entered by hand)."""
        elsewhere = self.by_names.get(self._key(bg.names))
        if elsewhere:
            number, g = next(((n, g) for n, g in elsewhere if (n, pair(g.first, g.second)) not in played), elsewhere[0])
            return Flag(
                bg.id, bg.board, bg.names, WRONG_TABLE, number, g.table, at=self.board_table.get((bg.board, number))
            )
        for number in range(1, len(self.rounds) + 1):
            at = self.board_table.get((bg.board, number))
            due = None if at is None else self.at_table.get((number, at))
            if due is not None and due.second is not None and (number, pair(due.first, due.second)) not in played:
                return Flag(bg.id, bg.board, bg.names, WRONG_PAIR, number, due.table, (due.first, due.second), at)
        return Flag(bg.id, bg.board, bg.names, WRONG_PAIR, None, None)


def round_in_play(rounds: Sequence[Sequence[Seating]], filed: Filed) -> int:
    """The first round with a game not in (len(rounds) + 1 once all are)."""
    for number, games_of_round in enumerate(rounds, 1):
        if any(g.second is not None and (number, pair(g.first, g.second)) not in filed.results for g in games_of_round):
            return number
    return len(rounds) + 1
