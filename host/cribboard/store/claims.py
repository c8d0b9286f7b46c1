# The players' phones' claims in the database (cribboard.event.claims says
# what they settle): every word kept, in the order it came, with who said
# it and when; a phone's resend of a word is known by the key it made for it.
from collections.abc import Sequence

from cribboard.store.engine import Database, Row


def of_night(db: Database, night: int) -> list[Row]:
    """Every claim of the night's games (a tournament's playoffs too: those with a slot), oldest first."""
    return db.all("SELECT * FROM result_claims WHERE night_id = ? ORDER BY id", (night,))


def keyed(db: Database, key: str) -> Row | None:
    """The claim a phone sent with this key, if it came."""
    return db.one("SELECT * FROM result_claims WHERE claim_key = ?", (key,))


def add(
    db: Database,
    night: int,
    game: tuple[int, int | None, int],
    players: tuple[int, int],
    scores: Sequence[int] | None,
    target: int,
    key: str,
    now_iso: str,
) -> int:
    """A claim by players[0] of their game with players[1] (game: round, playoff slot or None, match's game):
    scores theirs then the other's, or None (a refusal of the other's); its id."""
    own, other = (None, None) if scores is None else (scores[0], scores[1])
    return int(
        db.value(
            "INSERT INTO result_claims (night_id, round, slot, game_no, n, other, own_score, other_score, target, "
            "claim_key, claimed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (night, *game, *players, own, other, target, key, now_iso),
        )
    )
