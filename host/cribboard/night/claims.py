# A player's phone's word on their game of a night (a tournament's
# qualifying is one): the result they claim, or a refusal of their
# opponent's claim. A player speaks only of their own game in the round in
# play, while its result is not in; a word resent (a phone that lost the
# network and sends again) is known by its key and taken once.
from cribboard.event import claims as claiming
from cribboard.event import sources
from cribboard.event.claims import Word
from cribboard.event.games import check_finished
from cribboard.event.refusals import NotInPlay, Settled, Unknown
from cribboard.event.stamp import now as _now
from cribboard.night import director
from cribboard.night.director import Night
from cribboard.night.draw import Seating
from cribboard.night.results import pair
from cribboard.store import claims as kept
from cribboard.store.engine import Database
from cribboard.text.i18n import N_, _

# How each source of a result in already is named to a player who would claim it.
_IN_FROM = {
    sources.BOARD: N_("your game of round %d is in already, from the board: the director fixes it if it is wrong"),
    sources.HAND: N_("your game of round %d is in already, from the director: ask them if it is wrong"),
    sources.PHONE: N_(
        "your game of round %d is in already, confirmed by you both: the director fixes it if it is wrong"
    ),
}


AT_A_BOARD = N_(
    "your table has a board: its result comes from the board (if the board fails, the director takes it away and "
    "you enter the game here)"
)


def said_before(db: Database, night: Night, word: Word) -> bool:
    """Whether this word came already (a resend: taken once); Unknown if its key is another's."""
    row = kept.keyed(db, word.key)
    if row is None:
        return False
    if row["night_id"] != night.id or row["n"] != word.player:
        raise Unknown(_("this word's key was used for another: send it again from the page"))
    return True


def seat_of(night: Night, player: int) -> tuple[int, Seating]:
    """The player's seat in the round in play; NotInPlay if they have none to speak of."""
    director.check_open(night)
    number = night.in_play
    if number > len(night.drawn):
        raise NotInPlay(_("every game of night %d is in") % night.id)
    seat = night.seat_of(number, player)
    if seat is None:
        raise NotInPlay(_("you are not drawn in round %d") % number)
    if seat.second is None:
        raise NotInPlay(_("round %d is a bye for you: there is no game to enter") % number)
    if night.tables.board_at(seat.table or "", number) is not None:
        raise NotInPlay(_(AT_A_BOARD))
    return number, seat


def check_word(open_claim: claiming.Settled | None, word: Word) -> None:
    """A result must be a finished game's; a refusal needs the opponent's claim waiting for an answer."""
    if word.scores is not None:
        check_finished(word.scores, word.target)
    elif open_claim is None or open_claim.state != claiming.WAITING or open_claim.first.by == word.player:
        raise NotInPlay(_("there is no result of your opponent's waiting for your answer"))


def claim(db: Database, night: Night, word: Word) -> Night:
    """The player's word on their game of the round in play; the night as it stands after it."""
    if said_before(db, night, word):
        return night
    player = word.player
    number, seat = seat_of(night, player)
    other = seat.second if seat.first == player else seat.first
    assert other is not None
    here = (number, pair(player, other))
    done = night.filed.results.get(here)
    if done is not None:
        raise Settled(_(_IN_FROM.get(done.source, _IN_FROM[sources.HAND])) % number)
    check_word(night.filed.claims.get(here), word)
    kept.add(db, night.id, (number, None, 1), (player, other), word.scores, word.target, word.key, _now())
    return director.load(db, night.id)
