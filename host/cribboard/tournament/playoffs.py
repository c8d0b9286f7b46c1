# The playoffs as they stand: each match of the bracket with its two
# players (the seeds the cut gave them), its table (a round's matches at
# the tables in turn, from the first, in the bracket's order, once every
# match of the round before is in: a table is never wanted by two), its
# length (best of N: N for the round, the final's own), and its games: a
# board's games at its table with the pair's names, in the order stored
# (where the two share a name, track 1 is the higher seed, as the board was
# told), and the games the director entered by hand: one more (a game no
# board reported) takes its number, the board's coming after it; a fix
# stands in for the game of its number. The two players' phones agreeing
# on a game (cribboard.event.claims) is a game entered too, the director's
# own for that number standing over it; a claim that waits or is disputed
# is kept on its match. A match is won at N // 2 + 1
# games (cribcore.match.wins_needed, the board's own count); a board's game
# after that, or one that fits no match, is flagged, never counted. Worked
# out from what is stored each time it is asked.
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from cribboard.event import claims as claiming
from cribboard.event.claims import Claim, Settled
from cribboard.event.games import BoardGame
from cribboard.event.sources import BOARD, HAND, PHONE
from cribboard.tournament.bracket import Bracket, Pairing, Slot
from cribcore.match import wins_needed


@dataclass(frozen=True)
class HandGame:
    """A playoff game the director entered: scores are the higher seed's, then the lower's."""

    round: int
    slot: int
    number: int  # the match's game, from 1
    scores: tuple[int, int]
    target: int = 121
    replaces: bool = False  # a fix of a game counted (else a game more, that no board reported)
    source: str = HAND  # or PHONE: the two players' phones agreed on it
    entered_by: int | None = None  # PHONE: the player who entered it, and the one who confirmed it
    confirmed_by: int | None = None


@dataclass(frozen=True)
class MatchGame:
    number: int
    scores: tuple[int, int]  # the higher seed's, the lower's
    source: str
    game_id: int | None = None
    entered_by: int | None = None  # PHONE: the player who entered it, and the one who confirmed it
    confirmed_by: int | None = None


@dataclass
class PlayoffMatch:
    """A match of the bracket as it stands."""

    pairing: Pairing
    players: tuple[int | None, int | None]  # the higher seed's number in the night, the lower's
    table: str | None
    board: str | None
    best_of: int
    games: list[MatchGame] = field(default_factory=list)
    wins: tuple[int, int] = (0, 0)
    winner: int | None = None  # a seed
    extra: list[int] = field(default_factory=list)  # board games past the match's end (flagged)
    claim: Settled | None = None  # the phones' claims of its next game, not agreed (waiting, or disputed)

    def need(self) -> int:
        return wins_needed(self.best_of)


@dataclass(frozen=True)
class Playoffs:
    bracket: Bracket
    seeds: tuple[int, ...]  # players' numbers, seed 1 first
    matches: dict[Slot, PlayoffMatch]
    winners: dict[Slot, int]
    strays: tuple[int, ...]  # board games that fit no match (ids)
    games: dict[int, BoardGame]  # the boards' games read, by id

    def round(self, number: int) -> list[PlayoffMatch]:
        return [self.matches[(number, slot)] for slot in range(self.bracket.matches_in(number))]

    def champion(self) -> int | None:
        seed = self.winners.get((self.bracket.rounds, 0))
        return None if seed is None else self.seeds[seed - 1]

    def places(self) -> dict[int, int]:
        """Each player knocked out so far, and the champion once there is one, with their place."""
        return {self.seeds[s - 1]: place for s, place in self.bracket.places(self.winners).items()}

    def round_in_play(self) -> int:
        """The first round with a match not decided (rounds + 1 once the final is)."""
        for number in range(1, self.bracket.rounds + 1):
            if any(p.winner is None for p in self.round(number)):
                return number
        return self.bracket.rounds + 1


def best_of(round_no: int, rounds: int, length: int, final: int) -> int:
    return final if round_no == rounds else length


def play(
    seeds: Sequence[int],
    length: int,
    final: int,
    tables: Sequence[tuple[str, str | None]],
    names: Mapping[int, str],
    games: Sequence[BoardGame],
    entries: Sequence[HandGame],
    claims: Sequence[Claim] = (),
) -> Playoffs:
    """seeds: the qualifiers' numbers, seed 1 first; tables: (table, its board or None), table 1 first;
    games: the boards' games stored since the qualifying ended, oldest first; entries: the director's;
    claims: the players' phones' words on their matches' games, oldest first."""
    settled: dict[tuple[int, int], list[Settled]] = {}
    for ((number, slot, _game), _pair), s in claiming.settle(claims).items():
        if slot is not None:
            settled.setdefault((number, slot), []).append(s)
    bracket = Bracket(len(seeds))
    winners: dict[Slot, int] = {}
    matches: dict[Slot, PlayoffMatch] = {}
    used: set[int] = set()
    by_hand: dict[tuple[int, int], dict[int, HandGame]] = {}
    added: dict[tuple[int, int], set[int]] = {}  # the numbers of games added by hand (fixed after, or not)
    for e in entries:
        by_hand.setdefault((e.round, e.slot), {})[e.number] = e  # (the last entered for a game stands)
        if not e.replaces:
            added.setdefault((e.round, e.slot), set()).add(e.number)
    for number in range(1, bracket.rounds + 1):
        n = best_of(number, bracket.rounds, length, final)
        drawn = number == 1 or all(p.winner is not None for p in matches.values() if p.pairing.round == number - 1)
        in_turn = [m.slot for m in bracket.round(number, winners) if not m.bye] if drawn else []
        table_of = {slot: tables[i % len(tables)] if tables else (None, None) for i, slot in enumerate(in_turn)}
        for m in bracket.round(number, winners):
            high = None if m.high is None else seeds[m.high - 1]
            low = None if m.low is None else seeds[m.low - 1]
            table, board = table_of.get(m.slot, (None, None))
            played = PlayoffMatch(m, (high, low), table, board, n)
            matches[(number, m.slot)] = played
            if m.bye:
                played.winner = m.high
                continue
            if high is None or low is None:
                continue
            pair = sorted((names[high], names[low]))
            mine = [g for g in games if g.id not in used and g.board == board and sorted(g.names) == pair]
            words = [s for s in settled.get((number, m.slot), ()) if s.first.pair() == {high, low}]
            hand = {**_agreed(words, high, low), **by_hand.get((number, m.slot), {})}  # (the director's stands)
            more = added.get((number, m.slot), set()) | {k for k, e in hand.items() if e.source == PHONE}
            _count(played, mine, hand, more, names, used)
            if played.winner is None:
                next_game = len(played.games) + 1
                played.claim = next(
                    (s for s in words if s.state != claiming.AGREED and s.first.number == next_game), None
                )
            if played.winner is not None:
                winners[(number, m.slot)] = played.winner
    strays = tuple(g.id for g in games if g.id not in used)
    return Playoffs(bracket, tuple(seeds), matches, winners, strays, {g.id: g for g in games})


def _agreed(words: Sequence[Settled], high: int, low: int) -> dict[int, HandGame]:
    """The games of a match its two players' phones agree on, by number, as games entered."""
    out: dict[int, HandGame] = {}
    for s in words:
        if s.state == claiming.AGREED and s.second is not None:
            c, by = s.first, s.scores_of()
            out[c.number] = HandGame(
                c.round, c.match or 0, c.number, (by[high], by[low]), c.target, False, PHONE, c.by, s.second.by
            )
    return out


def _count(
    played: PlayoffMatch,
    mine: Sequence[BoardGame],
    by_hand: Mapping[int, HandGame],
    added: set[int],
    names: Mapping[int, str],
    used: set[int],
) -> None:
    """A match's games counted in order to its winner: the board's numbered as they came around the games
    added by hand, a fix standing in for its number."""
    high, low = played.players
    assert high is not None and low is not None  # (a match is counted once both are known)
    from_board: dict[int, BoardGame] = {}
    k = 1
    for g in mine:
        while k in added:
            k += 1
        from_board[k] = g
        k += 1
    wins = [0, 0]
    for k in sorted(set(from_board) | set(by_hand)):
        if played.winner is not None:
            if k in from_board:
                played.extra.append(from_board[k].id)
                used.add(from_board[k].id)
            continue
        if k in by_hand:
            e = by_hand[k]
            game = MatchGame(k, e.scores, e.source, None, e.entered_by, e.confirmed_by)
            if k in from_board:
                used.add(from_board[k].id)
        else:
            g = from_board[k]
            used.add(g.id)
            shared = g.names[0] == g.names[1]
            high_track = 0 if shared or g.names[0] == names[high] else 1
            game = MatchGame(k, (g.scores[high_track], g.scores[1 - high_track]), BOARD, g.id)
        played.games.append(game)
        wins[0 if game.scores[0] > game.scores[1] else 1] += 1
        if max(wins) >= played.need():
            seed = played.pairing.high if wins[0] > wins[1] else played.pairing.low
            played.winner = seed
    played.wins = (wins[0], wins[1])
