# The titles of the tables' columns. A column is named by its key, which is
# also the key in --json (so it never changes with the language); the title
# a table shows over it is translated. tests/host/test_i18n.py checks that
# every column a command prints has its title here.
from cribboard.i18n import N_, _

TITLES = {
    "after": N_("after"), "avg per entry (to the game hole)": N_("avg per entry (to the game hole)"),
    "best hand": N_("best hand"), "board": N_("board"),
    "boards": N_("boards"), "boot": N_("boot"), "crib/deal dealt": N_("crib/deal dealt"), "deals": N_("deals"),
    "draws": N_("draws"), "error": N_("error"), "finished": N_("finished"), "firmware": N_("firmware"),
    "game": N_("game"), "game_points": N_("game points"), "games": N_("games"), "hand/deal": N_("hand/deal"),
    "id": N_("id"), "kind": N_("kind"), "last_request_at": N_("last request"),
    "last_sync": N_("last sync"), "losses": N_("losses"), "match": N_("match"),
    "match_winner": N_("match winner"), "matches": N_("matches"), "matches_won": N_("matches won"),
    "name": N_("name"), "paired_at": N_("paired at"), "parties": N_("parties"), "pegging/deal": N_("pegging/deal"),
    "player": N_("player"),
    "players": N_("players"), "points": N_("points"), "rank": N_("rank"), "raw": N_("raw"), "reason": N_("reason"),
    "rejected": N_("kept apart"),
    "received_at": N_("received at"), "result": N_("result"), "revoked_at": N_("revoked at"),
    "rubicons_given": N_("rubicons given"),
    "rubicons_taken": N_("rubicons taken"), "scheme": N_("scheme"), "score": N_("score"), "scores": N_("scores"),
    "seq": N_("seq"), "show games": N_("show games"), "skunk": N_("skunk"), "skunks": N_("skunks"),
    "skunks given": N_("skunks given"), "skunks taken": N_("skunks taken"), "skunks_given": N_("skunks given"),
    "skunks_taken": N_("skunks taken"), "spread": N_("spread"), "target": N_("target"), "updated": N_("updated"),
    "when": N_("when"), "who": N_("who"), "winner": N_("winner"), "wins": N_("wins"),
}


def title(column: str) -> str:
    """The column's title in the current language."""
    return _(TITLES.get(column, column))
