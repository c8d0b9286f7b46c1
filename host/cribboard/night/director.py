# What a director does to a night, kept in the database: begin it, seat a
# late arrival, let a player go, put a board at a table or take it away,
# enter or fix a result, undo, end it; and
# the night as it stands (its draw, its games filed, its standings), read
# back whole each time it is asked, so every command and page agrees.
import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from cribboard.event import sources
from cribboard.event.claims import Claim
from cribboard.event.games import BoardGame, check_finished
from cribboard.event.refusals import (
    NotAGame,
    NotEnded,
    NotInPlay,
    Outstanding,
    Settled,
    Superseded,
    Unknown,
    found,
    still_open,
)
from cribboard.event.roster import Roster
from cribboard.event.stamp import now as _now
from cribboard.event.tables import Seat, Tables
from cribboard.night import draw as drawing
from cribboard.night import redraw, results, standings
from cribboard.night.draw import SEED_MAX, DrawError, Seating, swapped
from cribboard.night.results import Entry, Filed
from cribboard.night.scheme import Scheme
from cribboard.night.scheme import from_json as scheme_from_json
from cribboard.store import claims as kept_claims
from cribboard.store import nights as kept
from cribboard.store.engine import Database, Row
from cribboard.text.i18n import N_, _, ngettext

DrawFn = Callable[[list[int], int, list[str], int], tuple[tuple[Seating, ...], ...]]  # (players, rounds, tables, seed)
SCHEME_SETTING = "night.scheme"  # the club's own scheme, when it set one


@dataclass
class Night:
    id: int
    name: str
    seed: int
    rounds: int
    scheme: Scheme
    pairing_games: int  # games a pairing plays in a row (a tournament's two-game format: 2), 1 for a night
    tables: Tables  # table 1 first, and the board at each round by round
    roster: Roster  # who the players are: numbers of the night, with their names
    players: list[int]  # everyone who played any of it, in the order they came
    present: list[int]  # those in the draw from the round in play on
    left: dict[int, int]  # who left, and before which round
    joined: dict[int, int]  # who came late, and at which round
    drawn: tuple[tuple[Seating, ...], ...]
    games: list[BoardGame]  # the boards' games it read (stored after it began, at its tables)
    claims: list[Claim]  # the players' phones' words on their games, oldest first (a tournament's playoffs' too)
    filed: Filed
    in_play: int  # the round in play (rounds + 1 once every game is in)
    started_at: str
    ended_at: str | None

    def counted(self) -> list[results.Result]:
        """The results that count so far: a bye once its round is in play (it is no win before); on a night
        ended early, only the byes of the rounds whose games all came in."""
        last = self.in_play - 1 if self.over() else self.in_play
        return [r for r in self.filed.results.values() if r.source != sources.BYE or r.round <= last]

    def standings(self) -> list[standings.Standing]:
        return standings.table(self.players, self.counted(), self.scheme, self.roster.label)

    def label(self, player: int | None) -> str:
        return self.roster.label(player)

    def over(self) -> bool:
        return self.ended_at is not None

    def round_now(self) -> int:
        """The round in play, or the last once all are in."""
        return min(self.in_play, len(self.drawn))

    def seat_of(self, number: int, player: int) -> Seating | None:
        """The player's seat (their game, or their bye) in round number; None if they are not drawn in it."""
        return next((g for g in self.drawn[number - 1] if player in (g.first, g.second)), None)

    def seat_at(self, board: str, number: int | None = None) -> tuple[int, Seating] | None:
        """The game at this board in a round (the round in play if none is given): its round and the
        game, or None (the board is at no table of the night's, or no one plays at its table that round)."""
        number = self.round_now() if number is None else number
        if self.over() or not 1 <= number <= len(self.drawn):
            return None
        table = self.tables.table_of(board, number)
        for g in self.drawn[number - 1]:
            if table is not None and g.table == table and g.second is not None:
                return number, g
        return None


def club_scheme(db: Database) -> Scheme:
    return scheme_from_json(kept.setting(db, SCHEME_SETTING))


def set_club_scheme(db: Database, scheme: Scheme) -> None:
    kept.set_setting(db, SCHEME_SETTING, scheme.to_json())


def begin(
    db: Database,
    players: Sequence[str],
    rounds: int,
    tables: Sequence[Seat],
    seed: int | None = None,
    name: str | None = None,
    scheme: Scheme | None = None,
    drawn_by: DrawFn | None = None,
    pairing_games: int = 1,
) -> Night:
    """A new night at these tables (each with its board, or none), drawn (DrawError if it cannot be), with
    the club's scheme unless one is given. The players are numbered from 1 in the order given (two may share
    a name). drawn_by: another draw than the night's (a tournament's qualifying), its pairings each played
    pairing_games games."""
    if seed is None:
        seed = secrets.randbelow(SEED_MAX + 1)
    _one_table_each([b for _t, b in tables])
    numbers, table_names = list(range(1, len(players) + 1)), [t for t, _b in tables]
    if drawn_by is None:
        drawn = drawing.draw(numbers, rounds, table_names, seed).rounds
    else:
        drawn = drawn_by(numbers, rounds, table_names, seed)
    when = _now()
    night_id = kept.begin(
        db,
        name or when[:10],
        seed,
        rounds,
        (scheme or club_scheme(db)).to_json(),
        list(tables),
        list(players),
        [[(g.table, g.first, g.second) for g in games] for games in drawn],
        when,
        pairing_games,
    )
    return load(db, night_id)


def rounds_for(players: int, wanted: int = drawing.ROUNDS) -> int:
    """A night's rounds when the director names none: the ACC's nine, or the most this many players can
    play with no pair meeting twice (at least one: two players can play one)."""
    return max(1, min(wanted, drawing.most_rounds(players)))


def tables_for(db: Database, wanted: Sequence[tuple[str, str | None]], players: int) -> list[Seat]:
    """The night's tables: those wanted (a name, and a board id's prefix or None for no board), each prefix
    naming one board (Unknown if not), a name alone that begins one known board's id seated with that
    board; with none wanted, tables numbered from 1, as many as the players need or the club has paired
    boards, the boards at the first ones and the rest with none."""
    if wanted:
        known = kept.known_boards(db)  # (read once for all the tables)
        return [
            (name, _board_of(known, prefix) if prefix is not None else _board_by_name(known, name))
            for name, prefix in wanted
        ]
    boards: list[str | None] = list(kept.club_boards(db))
    boards += [None] * (drawing.tables_needed(players) - len(boards))
    return [(str(n), board) for n, board in enumerate(boards, 1)]


def board_named(db: Database, prefix: str) -> str:
    """The one board this database knows whose id begins so; Unknown if none or several."""
    return _board_of(kept.known_boards(db), prefix)


def _beginning(known: Sequence[str], prefix: str) -> list[str]:
    """The known boards whose id begins with prefix (none for an empty one)."""
    return [b for b in known if b.startswith(prefix)] if prefix else []


def _board_of(known: Sequence[str], prefix: str) -> str:
    named = _beginning(known, prefix)
    if len(named) != 1:
        raise Unknown(
            _("%(prefix)r names %(count)d of the boards this database knows (synced or paired), not one")
            % {"prefix": prefix, "count": len(named)}
        )
    return named[0]


BOARD_LIKE = 4  # a table's name this long or longer that begins a known board's id names that board too


def _board_by_name(known: Sequence[str], name: str) -> str | None:
    """The board a table named as a board is (`--table 3f2a`: how a board was seated before tables had
    names): the one known board whose id begins so; None for a name no board's id begins (a table of
    wood); Unknown if several do."""
    if len(name) < BOARD_LIKE:
        return None
    named = _beginning(known, name)
    if len(named) > 1:
        raise Unknown(
            _(
                "table %(table)r begins the ids of %(count)d boards: name the table and its board "
                "(--table NAME=BOARD), or give the table another name"
            )
            % {"table": name, "count": len(named)}
        )
    return named[0] if named else None


def _one_table_each(boards: Sequence[str | None]) -> None:
    twice = sorted({b for b in boards if b is not None and boards.count(b) > 1})
    if twice:
        raise DrawError(_("a board can be at one table only: %s is at more") % ", ".join(twice))


def load(db: Database, night_id: int | None = None) -> Night:
    """The night as it stands (the latest without an id); NoSuchEvent if there is none."""
    row = found(
        kept.night(db, night_id),
        night_id,
        N_("there is no night %d"),
        N_("no night yet: `cribboard night new` begins one"),
    )
    tables = Tables.of(
        json.loads(row["tables"]), [(b["table_name"], b["from_round"], b["board"]) for b in kept.boards(db, row["id"])]
    )
    drawn = tuple(tuple(Seating(t, f, s) for t, f, s in games) for games in kept.drawn(db, row["id"]))
    who = kept.players(db, row["id"])
    roster = Roster({p["n"]: p["name"] for p in who}, row["id"])
    games = _board_games(kept.board_games(db, row["after_game"], tables.boards(), row["until_game"]))
    entries = [
        Entry(e["round"], (e["first"], e["second"]), (e["first_score"], e["second_score"]), e["target"], e["game_id"])
        for e in kept.entries(db, row["id"])
    ]
    claims = [_claim(c) for c in kept_claims.of_night(db, row["id"])]
    filed = results.file(drawn, games, entries, tables, roster.names, [c for c in claims if c.match is None])
    in_play = results.round_in_play(drawn, filed)
    left = {p["n"]: p["left_before"] for p in who if p["left_before"] is not None}
    return Night(
        row["id"],
        row["name"],
        row["seed"],
        row["rounds"],
        scheme_from_json(row["scheme"]),
        row["pairing_games"],
        tables,
        roster,
        [p["n"] for p in who],
        [p["n"] for p in who if p["left_before"] is None],
        left,
        {p["n"]: p["joined"] for p in who if p["joined"] > 1},
        drawn,
        games,
        claims,
        filed,
        in_play,
        row["started_at"],
        row["ended_at"],
    )


def _claim(row: Row) -> Claim:
    scores = None if row["own_score"] is None else (int(row["own_score"]), int(row["other_score"]))
    return Claim(row["id"], row["round"], row["n"], row["other"], scores, row["target"], row["slot"], row["game_no"])


def board_games_after(db: Database, after_game: int, boards: Sequence[str]) -> list[BoardGame]:
    """The finished cribbage games stored after after_game at these boards, oldest first (a tournament's
    playoffs read those after its qualifying)."""
    return _board_games(kept.board_games(db, after_game, boards))


def _board_games(rows: Sequence[Row]) -> list[BoardGame]:
    games: dict[int, tuple[Row, list[str]]] = {}
    for r in rows:
        games.setdefault(r["id"], (r, []))[1].append(r["name"])
    return [
        BoardGame(
            r["id"], r["board"], tuple(names), tuple(json.loads(r["scores"])), r["winner"], r["target"], r["skunk"] or 0
        )
        for r, names in games.values()
    ]


def check_open(night: Night) -> None:
    still_open(night.ended_at, night.id, N_("night %d has ended: nothing more can change in it"))


def _untouched_from(night: Night) -> int:
    """The first round no result of which is in yet (the rounds before it are kept as drawn)."""
    first = night.rounds + 1
    for number in range(night.rounds, 0, -1):
        if any(r.source != sources.BYE for r in night.filed.of_round(number)):
            break
        first = number
    return first


def change_room(
    db: Database,
    night: Night,
    joining: Sequence[str] = (),
    leaving: Sequence[str] = (),
    start: int | None = None,
    namesakes: bool = False,
) -> tuple[Night, int]:
    """Late arrivals seated and leavers let go from round start, and the rounds from there drawn again; the
    night, and start. By default start is, for late arrivals, the round after the one in play (it is seated:
    its boards and the room were told its pairs), and for leavers the first round no result of which is in
    (a leaver's seat in the round in play is drawn again); the director gives the round in play as start to
    draw it again for late arrivals too. DrawError if the rounds cannot be drawn or a round from
    start on has a result in; Unknown if a name is wrong. One who left and comes back is the same player
    again; a name already playing is refused unless namesakes (another player of that name)."""
    check_open(night)
    gone = [p for p in night.players if p not in night.present]
    joined: list[tuple[int, str]] = []
    number = max(night.players, default=0)
    for name in joining:
        here = [p for p in night.roster.numbers_of(name) if p in night.present]
        back = [p for p in night.roster.numbers_of(name) if p in gone and p not in dict(joined)]
        if here and not namesakes:
            raise DrawError(
                _("%(name)s is playing tonight already (%(who)s): to seat another player of that name, give --namesake")
                % {"name": name, "who": ", ".join("#%d" % p for p in here)}
            )
        if back and not namesakes:
            joined.append((back[0], name))
        else:
            number += 1
            joined.append((number, name))
    left = [night.roster.find(name, night.present) for name in leaving]
    per = night.pairing_games
    first = _untouched_from(night)
    first += -(first - 1) % per  # (a pairing's games are drawn together: from the next pairing on)
    if first > night.rounds:
        raise DrawError(_("every round has begun: there is no round left to draw again"))
    if start is None and not left:  # (the round in play is seated, its boards told: kept for a late arrival,
        # who sits it out, unless the director says; a leaver's seat in it is drawn again)
        start = max(first, night.in_play + 1)
        start += -(start - 1) % per
        if start > night.rounds:
            raise DrawError(
                _(
                    "round %(round)d is being played and is the last: give --from %(round)d to draw it again "
                    "(its players are told their new seats)"
                )
                % {"round": night.in_play}
            )
    elif start is None:
        start = first
    elif not first <= start <= night.rounds or (start - 1) % per:
        raise DrawError(
            _("rounds %(first)d to %(last)d can be drawn again (a round with a result in stays), not %(start)d")
            % {"first": first, "last": night.rounds, "start": start}
            if (start - 1) % per == 0
            else _("round %(start)d is a pairing's second game: draw again from round %(next)d")
            % {"start": start, "next": start + 1}
        )
    room = [p for p in night.present if p not in left] + [p for p, _name in joined]
    added = _more_tables(night.tables.names, drawing.tables_needed(len(room)))
    pairings = redraw.redraw(
        room,
        (night.rounds - start + 1) // per,
        [*night.tables.names, *added],
        night.seed + start,
        night.drawn[: start - 1 : per],
    )
    rest = [r for games in pairings for r in (games, *[swapped(games)] * (per - 1))]
    kept.redrawn(
        db,
        night.id,
        start,
        [[(g.table, g.first, g.second) for g in games] for games in rest],
        joined=joined,
        left=left,
        added_tables=added,
    )
    return load(db, night.id), start


def _more_tables(names: Sequence[str], needed: int) -> list[str]:
    """The tables to set up for a room grown past the night's: numbered on from the night's count, each
    without a board until one is put there (its results by hand)."""
    added: list[str] = []
    n = len(names)
    while len(names) + len(added) < needed:
        n += 1
        if str(n) not in names:
            added.append(str(n))
    return added


def set_board(db: Database, night: Night, table: str, prefix: str | None, start: int | None = None) -> Night:
    """A board put at a table (prefix: its id's beginning), or the table's board taken away (None), from round
    start on (by default the round in play); a board at another table then leaves it. Unknown if the
    table or the round is not the night's, Settled if a game of the table from that round on is in from
    another board."""
    check_open(night)
    if table not in night.tables.names:
        raise Unknown(
            _("night %(night)d has no table %(table)r (its tables: %(tables)s)")
            % {"night": night.id, "table": table, "tables": ", ".join(night.tables.names)}
        )
    number = night.round_now() if start is None else start
    if not 1 <= number <= night.rounds:
        raise Unknown(
            _("night %(night)d has rounds 1 to %(last)d, not %(round)d")
            % {"night": night.id, "last": night.rounds, "round": number}
        )
    board = None if prefix is None else board_named(db, prefix)
    seats: list[Seat] = [(table, board)]
    if board is not None:
        seats += [(t, None) for t in night.tables.names if t != table and night.tables.board_at(t, number) == board]
    from_board = {g.id: g.board for g in night.games}
    for at, put in seats:
        for r in night.filed.results.values():
            if (
                r.table == at
                and r.round >= number
                and r.source == sources.BOARD
                and from_board.get(r.game_id or 0) != put
            ):
                raise Settled(
                    _(
                        "table %(table)s's game of round %(round)d is in from its board: a change of board "
                        "can begin at round %(next)d"
                    )
                    % {"table": at, "round": r.round, "next": r.round + 1}
                )
    kept.set_boards(db, night.id, number, seats)
    return load(db, night.id)


def check_result(night: Night, round_no: int, players: tuple[int, int], scores: tuple[int, int], target: int) -> None:
    """The checks a result the director enters meets (a board's game met them on the board)."""
    check_open(night)
    if not 1 <= round_no <= len(night.drawn):
        raise NotInPlay(
            _("night %(night)d has rounds 1 to %(last)d, not %(round)d")
            % {"night": night.id, "last": len(night.drawn), "round": round_no}
        )
    a, b = players
    seated = [g for g in night.drawn[round_no - 1] if g.second is not None and {g.first, g.second} == {a, b}]
    if not seated:
        drawn_in = [n for n, games in enumerate(night.drawn, 1) for g in games if {g.first, g.second} == {a, b}]
        if drawn_in:  # (the wrong round typed: say the right one)
            raise NotInPlay(
                ngettext(
                    "%(a)s and %(b)s are drawn to play each other in round %(drawn)s, not in round %(round)d",
                    "%(a)s and %(b)s are drawn to play each other in rounds %(drawn)s, not in round %(round)d",
                    len(drawn_in),
                )
                % {
                    "a": night.label(a),
                    "b": night.label(b),
                    "drawn": ", ".join(str(n) for n in drawn_in),
                    "round": round_no,
                }
            )
        raise NotInPlay(
            _("%(a)s and %(b)s are not drawn to play each other in round %(round)d")
            % {"a": night.label(a), "b": night.label(b), "round": round_no}
        )
    check_finished(scores, target)


def players_named(night: Night, round_no: int | None, names: Sequence[str]) -> tuple[int, int]:
    """The two players a director names for a result: by name, or by number where a name is shared; of a
    name two share, the one drawn against the other named in that round, if only one is."""
    if len(names) != 2:
        raise NotAGame(_("name the game's two players, track 1 first"))
    found: list[list[int]] = []
    for name in names:
        try:
            found.append([night.roster.find(name)])
        except Unknown:
            shared = night.roster.numbers_of(name)
            if len(shared) < 2:
                raise
            found.append(shared)
    if round_no is not None and 1 <= round_no <= len(night.drawn):
        met: list[tuple[int, int]] = []
        for g in night.drawn[round_no - 1]:
            if g.second is None:
                continue
            if g.first in found[0] and g.second in found[1]:  # (namesakes at one table: track 1 dealt first)
                met.append((g.first, g.second))
            elif g.second in found[0] and g.first in found[1]:
                met.append((g.second, g.first))
        if len(met) == 1:
            return met[0]
    return night.roster.find(names[0]), night.roster.find(names[1])  # (says which name to give by number)


def enter(
    db: Database,
    night: Night,
    round_no: int,
    players: tuple[int, int],
    scores: tuple[int, int],
    target: int = 121,
    game_id: int | None = None,
) -> Night:
    """A result entered by hand (it stands in for the board's game of the pair that round)."""
    check_result(night, round_no, players, scores, target)
    kept.enter(db, night.id, round_no, players, scores, target, game_id, _now())
    return load(db, night.id)


def take_flagged(
    db: Database, night: Night, game_id: int, round_no: int | None = None, players: Sequence[str] = ()
) -> Night:
    """A flagged board game counted after all, for the round its pair was drawn in (or the one given);
    players: who really sat at its tracks, track 1 first, when the board had other names (by name, or by
    number where a name is shared)."""
    flag = next((f for f in night.filed.flags if f.game_id == game_id), None)
    if flag is None:
        raise Unknown(_("game %d is not one of tonight's flagged games (`cribboard night flags`)") % game_id)
    if flag.reason == results.NOT_TWO:
        raise NotAGame(_("game %d is not a game for two: enter its result by hand") % game_id)
    game = next(g for g in night.games if g.id == game_id)
    try:
        both = players_named(night, flag.round if round_no is None else round_no, tuple(players) or game.names)
    except Unknown:
        if players:
            raise
        raise NotInPlay(  # (the board's own names are not the night's: who played is the director's to say)
            _("the draw never seats %(a)s and %(b)s together: name who really played (track 1 first)")
            % {"a": game.names[0], "b": game.names[-1]}
        ) from None
    number = round_no
    if number is None:
        number = next(
            (n for n, games in enumerate(night.drawn, 1) for g in games if {g.first, g.second} == set(both)), None
        )
    if number is None:
        raise NotInPlay(
            _("the draw never seats %(a)s and %(b)s together: name who really played (track 1 first)")
            % {"a": night.label(both[0]), "b": night.label(both[1])}
        )
    return enter(db, night, number, both, (game.scores[0], game.scores[1]), game.target, game_id)


def undo(db: Database, night: Night) -> tuple[Night, Row | None]:
    """The last result entered taken back; the night, and what was undone (None: nothing to undo)."""
    check_open(night)
    undone = kept.undo(db, night.id, _now())
    return load(db, night.id), undone


def history(db: Database, night: Night) -> list[Row]:
    """Every result the director entered (those taken back too: undone_at) and every word of the players'
    phones (by: who said it; a refusal has no scores; a playoff game's has its match and game), in the
    order they came."""
    hand = [{**r, "source": sources.HAND, "by": None} for r in kept.entries(db, night.id, with_undone=True)]
    phones = [
        {
            "id": c["id"],
            "round": c["round"],
            "first": c["n"],
            "second": c["other"],
            "first_score": c["own_score"],
            "second_score": c["other_score"],
            "target": c["target"],
            "game_id": None,
            "entered_at": c["claimed_at"],
            "undone_at": None,
            "source": sources.PHONE,
            "by": c["n"],
            "match": None if c["slot"] is None else c["slot"] + 1,
            "game": c["game_no"],
        }
        for c in kept_claims.of_night(db, night.id)
    ]
    return sorted(hand + phones, key=lambda r: str(r["entered_at"]))


@dataclass(frozen=True)
class NotIn:
    """The games of a night not in yet: each round that has some, and the tables they are at."""

    rounds: tuple[tuple[int, tuple[str, ...]], ...]

    def __bool__(self) -> bool:
        return bool(self.rounds)

    def count(self) -> int:
        return sum(len(tables) for _n, tables in self.rounds)

    def said(self) -> dict[str, object]:
        """How many and where, as a director reads them ("round 2, tables 1, 3; round 3, table 2"), for a
        message's %(count)d and %(where)s."""
        where = "; ".join(
            ngettext("round %(round)d, table %(tables)s", "round %(round)d, tables %(tables)s", len(tables))
            % {"round": number, "tables": ", ".join(tables)}
            for number, tables in self.rounds
        )
        return {"count": self.count(), "where": where}


def outstanding(night: Night) -> NotIn:
    """The games not in yet, each round's in the tables' order (as the room is laid out)."""
    order = {name: k for k, name in enumerate(night.tables.names)}
    out: list[tuple[int, tuple[str, ...]]] = []
    for number, games in enumerate(night.drawn, 1):
        tables = sorted(
            (
                g.table or ""
                for g in games
                if g.second is not None and (number, results.pair(g.first, g.second)) not in night.filed.results
            ),
            key=lambda t: order.get(t, len(order)),
        )
        if tables:
            out.append((number, tuple(tables)))
    return NotIn(tuple(out))


def end(db: Database, night: Night, early: bool = False) -> Night:
    """The night over, its standings final; Outstanding while games are not in, unless early (the director
    ends it as it stands: the games not in are not played)."""
    check_open(night)
    missing = outstanding(night)
    if missing and not early:
        raise Outstanding(
            ngettext(
                "night %(night)d has %(count)d game not in (%(where)s): enter it, or give --early to end the "
                "night as it stands",
                "night %(night)d has %(count)d games not in (%(where)s): enter them, or give --early to end the "
                "night as it stands",
                missing.count(),
            )
            % {"night": night.id, **missing.said()}
        )
    kept.end(db, night.id, _now())
    return load(db, night.id)


def ended(db: Database, night_id: int | None = None) -> Night:
    """The night asked for, else the one ended last: what a reopen takes back."""
    return load(db, kept.last_ended(db) if night_id is None else night_id)


def reopen(db: Database, night: Night) -> Night:
    """The night's end undone (a slip), until another night begins: its results can change again, and the
    games stored since are its as they fit."""
    if not night.over():
        raise NotEnded(_("night %d has not ended: there is nothing to reopen") % night.id)
    later = kept.begun_after(db, night.id)
    if later is not None:
        raise Superseded(
            _("night %(later)d has begun since: night %(night)d can no longer be reopened")
            % {"later": later, "night": night.id}
        )
    kept.reopen(db, night.id)
    return load(db, night.id)


def ended_standings(
    db: Database, since: float | None = None, until: float | None = None
) -> list[tuple[int, list[standings.Standing]]]:
    """Each ended night's id and final standings, begun in [since, until) (Unix seconds), oldest first."""
    out = []
    for row in kept.listing(db):
        if row["ended_at"] is None:
            continue
        begun = datetime.fromisoformat(row["started_at"]).timestamp()
        if (since is None or begun >= since) and (until is None or begun < until):
            out.append((row["id"], load(db, row["id"]).standings()))
    return out


def latest(db: Database) -> Night | None:
    """The night under way, else the last one; None before the first."""
    row = kept.night(db)
    return None if row is None else load(db, row["id"])
