# A player's phone's word on the game they are at, whichever stage their
# event is in: a night's round or a tournament's qualifying (the night's
# claims), or the next game of their playoff match, at a table without a
# board, while the match is in play and not won.
from cribboard.event.claims import Word
from cribboard.event.refusals import NotInPlay, Settled
from cribboard.event.stamp import now as _now
from cribboard.night import claims as night_claims
from cribboard.night import director as nights
from cribboard.store import claims as kept
from cribboard.store import tournaments as kept_tournaments
from cribboard.store.engine import Database
from cribboard.text.i18n import _
from cribboard.tournament import director
from cribboard.tournament.director import Tournament
from cribboard.tournament.playoffs import PlayoffMatch


def claim(db: Database, night_id: int, word: Word) -> None:
    """The player's word on their game in play: of the night, or of its tournament's playoffs once the cut
    is made."""
    row = kept_tournaments.of_night(db, night_id)
    if row is None or kept_tournaments.seeds(row) is None:
        night_claims.claim(db, nights.load(db, night_id), word)
        return
    playoff_claim(db, director.load(db, row["id"]), word)


def match_of(t: Tournament, player: int) -> PlayoffMatch:
    """The player's match in play; NotInPlay if they have none now."""
    director.check_open(t)
    po = director.playoffs_of(t)
    now = po.round_in_play()
    match = (
        next((p for p in po.round(now) if player in p.players and not p.pairing.bye and p.winner is None), None)
        if now <= po.bracket.rounds
        else None
    )
    if match is None or None in match.players:
        raise NotInPlay(_("you have no match to play now"))
    if match.board is not None:
        raise NotInPlay(_(night_claims.AT_A_BOARD))
    return match


def playoff_claim(db: Database, t: Tournament, word: Word) -> None:
    """The player's word on their match's next game (word.game: the number the page showed, checked against
    the one in play)."""
    if night_claims.said_before(db, t.night, word):
        return
    match = match_of(t, word.player)
    number = len(match.games) + 1
    if word.game is not None and word.game < number:
        raise Settled(
            _("game %(game)d of your match is in already: this is game %(now)d") % {"game": word.game, "now": number}
        )
    if word.game is not None and word.game > number:
        raise NotInPlay(_("you have no match to play now"))
    high, low = match.players
    other = low if high == word.player else high
    assert other is not None
    night_claims.check_word(match.claim, word)
    game = (match.pairing.round, match.pairing.slot, number)
    kept.add(db, t.night.id, game, (word.player, other), word.scores, word.target, word.key, _now())
