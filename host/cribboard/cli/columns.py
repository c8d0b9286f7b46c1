# The titles of the tables' columns. A column is named by its key, which is
# also the key in --json (so it never changes with the language); the title
# a table shows over it is translated. tests/host/test_i18n.py checks that
# every column a command prints has its title here.
from cribboard.text.i18n import N_, _

TITLES = {
    "after": N_("after"),
    "avg per entry (to the game hole)": N_("avg per entry (to the game hole)"),
    "best hand": N_("best hand"),
    "best_of": N_("best of"),
    "board": N_("board"),
    "boards": N_("boards"),
    "boot": N_("boot"),
    "byes": N_("byes"),
    "card": N_("card"),
    "code": N_("code"),
    "crib/deal dealt": N_("crib/deal dealt"),
    "cut": N_("cut"),
    "cut_at": N_("cut at"),
    "deals": N_("deals"),
    "draws": N_("draws"),
    "ended_at": N_("ended"),
    "entered_at": N_("entered"),
    "error": N_("error"),
    "finished": N_("finished"),
    "firmware": N_("firmware"),
    "first": N_("first to deal"),
    "first_score": N_("first's score"),
    "firsts": N_("nights won"),
    "format": N_("format"),
    "game": N_("game"),
    "game_id": N_("board's game"),
    "game_points": N_("game points"),
    "games": N_("games"),
    "hand/deal": N_("hand/deal"),
    "id": N_("id"),
    "kind": N_("kind"),
    "last_request_at": N_("last request"),
    "last_sync": N_("last sync"),
    "entered_by": N_("entered by"),
    "confirmed_by": N_("confirmed by"),
    "by": N_("by"),
    "losses": N_("losses"),
    "match": N_("match"),
    "match_winner": N_("match winner"),
    "matches": N_("matches"),
    "matches_won": N_("matches won"),
    "name": N_("name"),
    "names": N_("names"),
    "nights": N_("nights"),
    "number": N_("number"),
    "opponent": N_("opponent"),
    "paid": N_("in the money"),
    "paired_at": N_("paired at"),
    "parties": N_("parties"),
    "pegging/deal": N_("pegging/deal"),
    "place": N_("place"),
    "player": N_("player"),
    "players": N_("players"),
    "points": N_("points"),
    "qualifying_rank": N_("qualifying rank"),
    "rank": N_("rank"),
    "raw": N_("raw"),
    "reason": N_("reason"),
    "received_at": N_("received at"),
    "rejected": N_("kept apart"),
    "logs": N_("logs"),
    "sent_again": N_("sent again"),
    "behind_since": N_("behind since"),
    "result": N_("result"),
    "revoked_at": N_("revoked at"),
    "round": N_("round"),
    "rounds": N_("rounds"),
    "rubicons_given": N_("rubicons given"),
    "rubicons_taken": N_("rubicons taken"),
    "said": N_("the phones said"),
    "scheme": N_("scheme"),
    "score": N_("score"),
    "scores": N_("scores"),
    "second": N_("second"),
    "second_score": N_("second's score"),
    "seed": N_("seed"),
    "seeds": N_("seeds"),
    "seq": N_("seq"),
    "show games": N_("show games"),
    "skunk": N_("skunk"),
    "skunks": N_("skunks"),
    "skunks given": N_("skunks given"),
    "skunks taken": N_("skunks taken"),
    "skunks_given": N_("skunks given"),
    "skunks_taken": N_("skunks taken"),
    "source": N_("from"),
    "spread": N_("spread"),
    "started_at": N_("begun"),
    "table": N_("table"),
    "target": N_("target"),
    "total_points": N_("total points"),
    "total_spread": N_("total spread"),
    "undone_at": N_("taken back"),
    "updated": N_("updated"),
    "when": N_("when"),
    "who": N_("who"),
    "winner": N_("winner"),
    "wins": N_("wins"),
}


def title(column: str) -> str:
    """The column's title in the current language."""
    return _(TITLES.get(column, column))


# Words a table shows in its cells, by the value --json gives (which never changes with the language).
ENTRY_KINDS = {  # what an entry's points were for (cribcore.game's kinds)
    "pegging": N_("pegging"),
    "hand": N_("hand"),
    "crib": N_("crib"),
    "heels": N_("his heels"),
    "correction": N_("correction"),
    "points": N_("points"),  # a board's buttons: an entry that says not what it was for
}
RESULT_SOURCES = {  # where a night's result came from (cribboard.night.results)
    "board": N_("the board"),
    "hand": N_("by hand"),
    "phone": N_("the players' phones"),
    "bye": N_("a bye"),
}
CLAIM_DISPUTES = {  # why the players' phones' claims of a game wait for the director (cribboard.event.claims)
    "disagree": N_("the players' phones disagree: the director enters the result"),
    "refused": N_("a player refused the other's result: the director enters it"),
}


def word(words: dict[str, str], value: str) -> str:
    """A cell's value in the current language (itself if it has no word here)."""
    return _(words[value]) if value in words else value
