# Each player's code for a night (or a tournament, through its qualifying):
# given to every player who has none when the director lists or prints them,
# and given anew to one player (a card lost, a code seen by others), which
# voids the old at once.
from cribboard.event import codes
from cribboard.event.stamp import now as _now
from cribboard.night.director import Night
from cribboard.store import codes as kept
from cribboard.store.engine import Database


def given(db: Database, night: Night, anew: int | None = None) -> dict[int, str]:
    """Every player's code in use, by number: those who had none given one; anew (a player's number) given
    a new one in place of theirs."""
    with db.transaction():
        held = kept.in_use(db, night.id)
        for number in night.players:
            if number not in held or number == anew:
                held[number] = _fresh(db)
                kept.give(db, night.id, number, held[number], _now())
    return held


def _fresh(db: Database) -> str:
    """A code no night has held (a repeat of 50 bits is all but impossible; a voided code stays void)."""
    while True:
        code = codes.make()
        if not kept.taken(db, code):
            return code
