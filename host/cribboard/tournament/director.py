# What a tournament's director does, kept in the database: begin it (its
# qualifying is a night, drawn in the tournament's format and scored the
# ACC's way, so the night's commands play it: rounds, results, flags, late
# entrants and withdrawals), make the cut once every qualifying game is in
# (deciding between players equal at the line), enter or fix a playoff game
# by hand, undo; and the tournament as it stands, read back whole each
# time it is asked.
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from cribboard.event import claims as claiming
from cribboard.event.games import check_finished
from cribboard.event.refusals import CutError, NotEnded, NotInPlay, Outstanding, Superseded, found, still_open
from cribboard.event.stamp import now as _now
from cribboard.event.tables import Seat
from cribboard.night import director as nights
from cribboard.night.director import Night
from cribboard.night.draw import DrawError, Seating
from cribboard.night.scheme import Scheme
from cribboard.night.standings import Standing
from cribboard.store import nights as kept_nights
from cribboard.store import tournaments as kept
from cribboard.store.engine import Database
from cribboard.text.i18n import N_, _, ngettext
from cribboard.tournament import cut as cutting
from cribboard.tournament import playoffs as playing
from cribboard.tournament import qualifying
from cribboard.tournament.bracket import Slot

THROUGH, AT_THE_LINE, OUT, WITHDREW = "through", "at the line", "out", "withdrew"  # a player's side of the cut
BEST_OF = 3  # a playoff match's games when the director names none
FINAL_BEST_OF = 5


@dataclass
class Tournament:
    id: int
    format: str
    best_of: int
    final_best_of: int
    night: Night  # the qualifying
    seeds: list[int] | None  # the qualifiers' numbers, seed 1 first, once the cut is made
    cut_at: str | None
    playoffs: playing.Playoffs | None
    ended_at: str | None = None  # the director ended it: its places are final, its matches no longer seated
    _standings: list[Standing] | None = field(default=None, repr=False, compare=False)

    def qualifying_in(self) -> bool:
        return self.night.in_play > self.night.rounds

    def standings(self) -> list[Standing]:
        """The qualifying's standings (worked out once: the cut, its marks and the places all ask)."""
        if self._standings is None:
            self._standings = self.night.standings()
        return self._standings

    def entrants(self) -> int:
        """Everyone who entered, withdrawals too: the cut is one in four of them."""
        return len(self.night.players)

    def the_cut(self) -> cutting.Cut:
        rows = self.standings()
        present = set(self.night.present)
        gone = {i for i, r in enumerate(rows) if r.number not in present}
        return cutting.cut(rows, self.entrants(), gone)

    def withdrawn(self) -> int:
        return len(self.night.players) - len(self.night.present)

    def cut_marks(self) -> list[str]:
        """Each qualifying standings row's side of the cut, in their order: THROUGH, AT_THE_LINE, OUT or
        WITHDREW (once the cut is made, its seeds are through)."""
        rows = self.standings()
        if self.seeds is not None:
            marks = {i: THROUGH for i, r in enumerate(rows) if r.number in self.seeds}
        else:
            c = self.the_cut()
            marks = {**dict.fromkeys(c.through, THROUGH), **dict.fromkeys(c.tied, AT_THE_LINE)}
        return [marks.get(i, OUT if r.number in self.night.present else WITHDREW) for i, r in enumerate(rows)]

    def places(self) -> list[tuple[int, int]]:
        """(place, player), first place first: the qualifiers by how far they went in the playoffs (those out
        in one round sharing its place; those still playing last among the qualifiers, unplaced: 0), then
        the rest in the qualifying's order, sharing its places."""
        out: list[tuple[int, int]] = []
        seeds = self.seeds or []
        if self.playoffs is not None:
            placed = self.playoffs.places()
            out += sorted(((placed.get(p, 0), p) for p in seeds), key=lambda x: (x[0] == 0, x[0], seeds.index(x[1])))
        rest = [r for r in self.standings() if r.number not in seeds]
        for k, r in enumerate(rest):
            place = len(seeds) + 1 + k
            if k and rest[k - 1].rank == r.rank:
                place = out[-1][0]
            out.append((place, r.number))
        return out


def begin(
    db: Database,
    entrants: Sequence[str],
    games: int,
    tables: Sequence[Seat],
    fmt: str = qualifying.TWO,
    seed: int | None = None,
    name: str | None = None,
    best_of: int = BEST_OF,
    final_best_of: int = FINAL_BEST_OF,
    scheme: Scheme | None = None,
) -> Tournament:
    """A new tournament: its qualifying drawn at these tables (DrawError if it cannot be), scored by the
    scheme given, else the ACC's (a sanctioned tournament's, whatever the club's nights use)."""
    qualifying.check_format(len(entrants), games, fmt)
    check_field(len(entrants))
    for n in (best_of, final_best_of):
        if n < 1 or n % 2 == 0:
            raise DrawError(_("a playoff match is best of an odd count of games (1, 3, 5...), not %d") % n)

    def drawn_by(players: list[int], rounds: int, table_names: list[str], seed: int) -> tuple[tuple[Seating, ...], ...]:
        return qualifying.draw(players, rounds, table_names, seed, fmt)

    night = nights.begin(
        db,
        entrants,
        games,
        tables,
        seed,
        name,
        scheme or Scheme(),
        drawn_by,
        qualifying.GAMES_A_PAIRING[fmt],
    )
    tid = kept.begin(db, night.id, fmt, best_of, final_best_of)
    return load(db, tid)


def check_field(entrants: int, withdrawn: int = 0) -> None:
    """CutError unless a playoff can be had: one in four of the entrants, and of those still in, two or more
    (said when a tournament would begin with too few, and when withdrawals leave too few)."""
    if cutting.qualifiers(entrants) < 2:
        raise CutError(_("%d entrants are too few for a playoff: one in four must be two or more") % entrants)
    if entrants - withdrawn < 2:
        raise CutError(
            ngettext(
                "%(entrants)d entrants and %(withdrawn)d withdrawn leave %(left)d player: too few for a playoff",
                "%(entrants)d entrants and %(withdrawn)d withdrawn leave %(left)d players: too few for a playoff",
                entrants - withdrawn,
            )
            % {"entrants": entrants, "withdrawn": withdrawn, "left": entrants - withdrawn}
        )


def load(db: Database, tournament_id: int | None = None) -> Tournament:
    """The tournament as it stands (the latest without an id); NoSuchEvent if there is none."""
    row = found(
        kept.tournament(db, tournament_id),
        tournament_id,
        N_("there is no tournament %d"),
        N_("no tournament yet: `cribboard tournament new` begins one"),
    )
    night = nights.load(db, row["night_id"])
    night.roster.tournament = row["id"]  # (a tournament's command says "tournament 1", not its qualifying's night)
    seeds = kept.seeds(row)
    playoffs = None
    if seeds is not None:
        board_of = [(t, night.tables.board_at(t, night.rounds)) for t in night.tables.names]
        after = kept_nights.night(db, night.id)
        played = nights.board_games_after(db, int(after["until_game"] or 0) if after else 0, night.tables.boards())
        entries = [
            playing.HandGame(
                e["round"], e["slot"], e["game_no"], (e["high_score"], e["low_score"]), e["target"], bool(e["replaces"])
            )
            for e in kept.entries(db, row["id"])
        ]
        claims = [c for c in night.claims if c.match is not None]
        playoffs = playing.play(
            seeds, row["best_of"], row["final_best_of"], board_of, night.roster.names, played, entries, claims
        )
    return Tournament(
        row["id"],
        row["format"],
        row["best_of"],
        row["final_best_of"],
        night,
        seeds,
        row["cut_at"],
        playoffs,
        row["ended_at"],
    )


def make_cut(db: Database, t: Tournament, take: Sequence[str] = ()) -> Tournament:
    """The cut made once every qualifying game is in: the qualifiers seeded in the qualifying's order; players
    equal at the line are the director's to decide (take: those who go through, as many as the places
    open). The qualifying ends with it."""
    check_open(t)
    if t.seeds is not None:
        raise CutError(_("the cut of tournament %d is made already") % t.id)
    missing = nights.outstanding(t.night)
    if missing:
        raise CutError(
            ngettext(
                "the qualifying has %(count)d game not in (%(where)s): the cut is made once every qualifying game "
                "is in",
                "the qualifying has %(count)d games not in (%(where)s): the cut is made once every qualifying game "
                "is in",
                missing.count(),
            )
            % missing.said()
        )
    rows = t.standings()
    c = t.the_cut()
    check_field(t.entrants(), t.withdrawn())
    through = [rows[i].number for i in c.through]
    if c.tied:
        tied = [rows[i].number for i in c.tied]
        taken = [
            t.night.roster.find(name, tied, N_("%(name)s is not equal at the cut line (those who are: %(players)s)"))
            for name in take
        ]
        if len(set(taken)) != c.open_places():
            raise CutError(
                ngettext(
                    "%(tied)s are equal at the cut line for %(open)d place: name who goes through (--take, as "
                    "many as the places)",
                    "%(tied)s are equal at the cut line for %(open)d places: name who goes through "
                    "(--take, as many as the places)",
                    c.open_places(),
                )
                % {"tied": ", ".join(t.night.label(p) for p in tied), "open": c.open_places()}
            )
        through += [p for p in tied if p in taken]
    elif take:
        raise CutError(_("no one is equal at the cut line: there is no one to take"))
    if not t.night.over():
        nights.end(db, t.night)
    kept.set_seeds(db, t.id, through, _now())
    return load(db, t.id)


def check_open(t: Tournament) -> None:
    still_open(t.ended_at, t.id, N_("tournament %d has ended: nothing more can change in it"))


def unwon(t: Tournament) -> list[tuple[int, int]]:
    """The playoff matches not won yet, as (round, match from 1), in the bracket's order."""
    if t.playoffs is None:
        return []
    return [
        (n, slot + 1) for (n, slot), p in sorted(t.playoffs.matches.items()) if not p.pairing.bye and p.winner is None
    ]


def end(db: Database, t: Tournament, early: bool = False) -> Tournament:
    """The tournament over: its places final, its boards no longer told its matches (its qualifying ended
    too, if it was not); Outstanding while a qualifying game is not in or a match is not won, unless early
    (the director ends it as it stands)."""
    check_open(t)
    if not early:
        _all_in(t)
    if not t.night.over():
        nights.end(db, t.night, early=True)  # (what is not in is said above)
    kept.end(db, t.id, _now())
    return load(db, t.id)


def _all_in(t: Tournament) -> None:
    missing = nights.outstanding(t.night) if t.seeds is None else None
    if missing:
        raise Outstanding(
            ngettext(
                "the qualifying of tournament %(id)d has %(count)d game not in (%(where)s): enter it, or give "
                "--early to end the tournament as it stands",
                "the qualifying of tournament %(id)d has %(count)d games not in (%(where)s): enter them, or give "
                "--early to end the tournament as it stands",
                missing.count(),
            )
            % {"id": t.id, **missing.said()}
        )
    matches = unwon(t)
    if matches:
        raise Outstanding(
            ngettext(
                "tournament %(id)d has %(count)d match not won (%(where)s): enter its games, or give --early to "
                "end the tournament as it stands",
                "tournament %(id)d has %(count)d matches not won (%(where)s): enter their games, or give --early "
                "to end the tournament as it stands",
                len(matches),
            )
            % {
                "id": t.id,
                "count": len(matches),
                "where": "; ".join(
                    _("round %(round)d, match %(match)d") % {"round": n, "match": m} for n, m in matches
                ),
            }
        )


def ended(db: Database, tournament_id: int | None = None) -> Tournament:
    """The tournament asked for, else the one ended last: what a reopen takes back."""
    return load(db, kept.last_ended(db) if tournament_id is None else tournament_id)


def reopen(db: Database, t: Tournament) -> Tournament:
    """The tournament's end undone (a slip), until another night or tournament begins: its matches are
    seated again, and its qualifying is open again if the cut was not made."""
    if t.ended_at is None:
        raise NotEnded(_("tournament %d has not ended: there is nothing to reopen") % t.id)
    later = kept_nights.begun_after(db, t.night.id)
    if later is not None:
        raise Superseded(
            _("night %(later)d has begun since: tournament %(id)d can no longer be reopened")
            % {"later": later, "id": t.id}
        )
    kept.reopen(db, t.id)
    if t.seeds is None and t.night.over():
        kept_nights.reopen(db, t.night.id)  # (its end ended the qualifying)
    return load(db, t.id)


def playoffs_of(t: Tournament) -> playing.Playoffs:
    if t.playoffs is None:
        raise CutError(_("the cut is not made yet: `cribboard tournament cut` makes it"))
    return t.playoffs


def enter(
    db: Database,
    t: Tournament,
    players: tuple[str, str],
    scores: tuple[int, int],
    game_no: int | None = None,
    target: int = 121,
) -> tuple[Tournament, Slot]:
    """A playoff game entered by hand (the next of the pair's match, or the one numbered: it stands in
    for the board's), players named by name or by number where a name is shared; the tournament, and the
    match's (round, place)."""
    check_open(t)
    po = playoffs_of(t)
    qualifier = N_("%(name)s is not a qualifier of tournament %(id)d (its qualifiers: %(players)s)")
    a, b = (t.night.roster.find(name, po.seeds, qualifier) for name in players)
    match = next(
        (p for p in po.matches.values() if p.players[0] is not None and {a, b} == set(p.players)),
        None,
    )
    if match is None:
        raise NotInPlay(
            _("%(a)s and %(b)s have no match in the playoffs (yet)") % {"a": t.night.label(a), "b": t.night.label(b)}
        )
    check_finished(scores, target)
    number = len(match.games) + 1 if game_no is None else game_no
    if match.winner is not None and game_no is None:
        raise NotInPlay(
            _("the match of %(a)s and %(b)s is over: give --game to fix one of its %(n)d games")
            % {"a": t.night.label(a), "b": t.night.label(b), "n": len(match.games)}
        )
    last = len(match.games) if match.winner is not None else min(len(match.games) + 1, match.best_of)
    if not 1 <= number <= last:  # (a match won takes no game more: only its games can be fixed)
        raise NotInPlay(
            _("game %(n)d is not one of this match's: games 1 to %(last)d can be entered") % {"n": number, "last": last}
        )
    high_first = match.players[0] == a
    ordered = (scores[0], scores[1]) if high_first else (scores[1], scores[0])
    replaces = number <= len(match.games)
    kept.enter(db, t.id, match.pairing.round, match.pairing.slot, number, replaces, ordered, target, _now())
    return load(db, t.id), (match.pairing.round, match.pairing.slot)


def undo(db: Database, t: Tournament) -> tuple[Tournament, dict[str, object] | None]:
    check_open(t)
    playoffs_of(t)
    undone = kept.undo(db, t.id, _now())
    return load(db, t.id), None if undone is None else dict(undone)


class GameRow(TypedDict):
    game: int
    scores: list[int]  # the higher seed's, the lower's
    source: str  # event.sources.BOARD, HAND or PHONE
    entered_by: str | None  # PHONE: the player who entered it, and the one who confirmed it
    confirmed_by: str | None


class BracketRow(TypedDict):
    """A match of the bracket as data (the JSON export, the projector's page, `tournament bracket`)."""

    round: int
    match: int  # its place in the round, from 1
    table: str | None
    board: str | None
    seeds: list[int | None]
    players: list[str | None]  # as the night labels them
    numbers: list[int | None]  # the players' numbers in the night
    best_of: int
    bye: bool
    games: list[GameRow]
    wins: list[int]
    winner: str | None
    claim: dict[str, object] | None  # the phones' claims of its next game (cribboard.event.claims.as_row)


class FlagRow(TypedDict):
    """A board's playoff game not counted, or a match's game its players' phones dispute, as data."""

    game: int | None  # the board's game (None: the phones' dispute)
    board: str | None
    names: list[str]
    reason: str  # AFTER_THE_MATCH, FITS_NO_MATCH, or the dispute's (claims.DISAGREE, claims.REFUSED)
    round: int | None
    match: int | None
    said: str | None  # a dispute: what each phone said


def bracket_rows(t: Tournament) -> list[BracketRow]:
    """Every match of the bracket as data: its round, place, table, seeds, players, length, games and
    winner (a bye: its one player through)."""
    po = playoffs_of(t)
    out: list[BracketRow] = []
    for number in range(1, po.bracket.rounds + 1):
        for p in po.round(number):
            high, low = p.players
            out.append(
                {
                    "round": number,
                    "match": p.pairing.slot + 1,
                    "table": None if p.pairing.bye else p.table,
                    "board": None if p.pairing.bye else p.board,
                    "seeds": [p.pairing.high, None if p.pairing.bye else p.pairing.low],
                    "players": [
                        None if high is None else t.night.label(high),
                        None if low is None else t.night.label(low),
                    ],
                    "numbers": [high, low],
                    "best_of": p.best_of,
                    "bye": p.pairing.bye,
                    "games": [
                        {
                            "game": g.number,
                            "scores": list(g.scores),
                            "source": g.source,
                            "entered_by": None if g.entered_by is None else t.night.label(g.entered_by),
                            "confirmed_by": None if g.confirmed_by is None else t.night.label(g.confirmed_by),
                        }
                        for g in p.games
                    ],
                    "wins": list(p.wins),
                    "winner": None if p.winner is None else t.night.label(po.seeds[p.winner - 1]),
                    "claim": None
                    if p.claim is None or high is None or low is None
                    else claiming.as_row(p.claim, (high, low), t.night.label),
                }
            )
    return out


AFTER_THE_MATCH = "after_the_match"  # a board's game after its match was won
FITS_NO_MATCH = "fits_no_match"  # a board's game whose names and table are no match's


def flag_rows(t: Tournament) -> list[FlagRow]:
    """The boards' playoff games not counted, as data: a game after its match was won (with its round and
    match), or one that fits no match; then the matches' games their players' phones dispute."""
    po = playoffs_of(t)
    flagged: list[tuple[int, str, int | None, int | None]] = [
        (gid, AFTER_THE_MATCH, number, slot + 1) for (number, slot), p in sorted(po.matches.items()) for gid in p.extra
    ]
    flagged += [(gid, FITS_NO_MATCH, None, None) for gid in po.strays]
    rows: list[FlagRow] = [
        {
            "game": gid,
            "board": po.games[gid].board,
            "names": list(po.games[gid].names),
            "reason": reason,
            "round": number,
            "match": match,
            "said": None,
        }
        for gid, reason, number, match in flagged
    ]
    for (number, slot), p in sorted(po.matches.items()):
        if p.claim is not None and p.claim.state in (claiming.DISAGREE, claiming.REFUSED):
            rows.append(
                {
                    "game": None,
                    "board": None,
                    "names": [t.night.label(n) for n in p.players if n is not None],
                    "reason": p.claim.state,
                    "round": number,
                    "match": slot + 1,
                    "said": claiming.said(p.claim, t.night.label),
                }
            )
    return rows


def seating_of(t: Tournament) -> dict[str, tuple[list[str], int]]:
    """The playoff matches on, by the board at their table: the pair's names (the higher seed on track 1)
    and the match's length; none once the tournament has ended."""
    out: dict[str, tuple[list[str], int]] = {}
    if t.playoffs is None or t.ended_at is not None:
        return out
    for p in t.playoffs.matches.values():
        high, low = p.players
        if p.board is None or p.pairing.bye or p.winner is not None or high is None or low is None:
            continue
        out[p.board] = ([t.night.roster.name(high), t.night.roster.name(low)], p.best_of)
    return out
