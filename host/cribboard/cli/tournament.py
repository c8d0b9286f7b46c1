# A sanctioned tournament: the director's commands, from the qualifying's
# draw to the final places (docs/tournament.md walks through one). The
# qualifying is a night: `cribboard night` plays it (rounds, results,
# flags, late entrants, withdrawals).
import json
from typing import TYPE_CHECKING, Any

import click

from cribboard.cli.base import cli
from cribboard.cli.columns import CLAIM_DISPUTES, word
from cribboard.cli.events import EventKind, Rows, beginning, ranked, scheme_options
from cribboard.cli.localized import TranslatedGroup
from cribboard.cli.night import SERVER_OPTION, print_night, say_namesakes, show_round
from cribboard.cli.options import (
    ROW_ID,
    SCORE,
    db_option,
    folder_given,
    json_option,
    names_as_typed,
    open_db,
    open_link,
    output_option,
    port_option,
    seed_option,
    tables_option,
)
from cribboard.cli.output import emit, status, write_out
from cribboard.errors import UsageError
from cribboard.text.i18n import N_, _

if TYPE_CHECKING:
    from cribboard.tournament.director import Tournament

_FORMATS = ("two", "one-cut", "one-alternating")  # (cribboard.tournament.qualifying's, as typed)
_PLACES_COLUMNS = ["place", "player", "seed", "qualifying_rank", "card", "spread"]
_CUT_WORDS = {"through": N_("through"), "at the line": N_("at the line"), "out": N_("out"), "withdrew": N_("withdrew")}


TOURNAMENT: "EventKind[Tournament]" = EventKind(
    "tournament",
    "cribboard.tournament.director",
    "cribboard.store.tournaments",
    help="Which tournament (its id); the latest if not given.",
)
_load = TOURNAMENT.read


@cli.group(cls=TranslatedGroup)
def tournament():
    """A sanctioned tournament, the ACC's way: qualifying games (a night: `cribboard night` plays them),
    the cut to one entrant in four, then a bracket of best-of-N matches with byes for the top seeds."""


@tournament.command("new")
@click.argument("entrants", nargs=-1, required=True)
@click.option("--games", type=click.IntRange(1, 99), help="Qualifying games each (the ACC: 12 to 22; default 22).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(_FORMATS),
    default="two",
    show_default=True,
    help="two: two games each against many, first deal alternating; one-cut: one game each, first deal cut "
    "for; one-alternating: one game each, first deal shared evenly.",
)
@tables_option
@click.option("--best-of", type=click.IntRange(1, 99), default=3, show_default=True, help="A playoff match's games.")
@click.option("--final", type=click.IntRange(1, 99), default=5, show_default=True, help="The final's games.")
@seed_option
@click.option("--name", help="The tournament's name (its date if not given).")
@scheme_options
@db_option
@json_option
def tournament_new(
    entrants: tuple[str, ...],
    games: int | None,
    fmt: str,
    tables: list[tuple[str, str | None]],
    best_of: int,
    final: int,
    seed: int | None,
    name: str | None,
    db_url: str,
    as_json: bool,
    **parts: Any,
) -> None:
    """Begin a tournament: the entrants drawn into the qualifying games, at the tables (scored the ACC's way
    unless the scheme's parts are given: a sanctioned tournament's is the ACC's, whatever the club's)."""
    from cribboard.cli.player_names import checked
    from cribboard.night import scheme
    from cribboard.tournament import director, qualifying

    names = [checked(p) for p in entrants]
    director.check_field(len(names))  # (before a new database is made for a tournament that cannot be)
    fewer = games is None
    if games is None:
        per = qualifying.GAMES_A_PAIRING[fmt]
        games = min(qualifying.ACC_GAMES[1], qualifying.most_games(len(names), fmt) // per * per)
    db, seats, the_scheme = beginning(db_url, tables, len(names), parts, lambda _db: scheme.Scheme())
    if fewer and games < qualifying.ACC_GAMES[1]:
        status(
            _("%(entrants)d entrants: %(games)d qualifying games, the most with no one met more than twice")
            % {"entrants": len(names), "games": games}
        )
    t = director.begin(db, names, games, seats, fmt, seed, name, best_of, final, the_scheme)
    say_namesakes(t.night)
    status(
        _(
            "tournament %(id)d begins: %(entrants)d entrants, %(games)d qualifying games at %(tables)d tables "
            "(night %(night)d plays them); %(qualifiers)d will qualify; the seed is %(seed)d"
        )
        % {
            "id": t.id,
            "entrants": t.entrants(),
            "games": games,
            "tables": len(seats),
            "night": t.night.id,
            "qualifiers": t.the_cut().qualifiers,
            "seed": t.night.seed,
        }
    )
    show_round(t.night, 1, as_json)


@tournament.command("standings")
@TOURNAMENT.listed
def tournament_standings(tournament_id: int | None, db_url: str, as_json: bool) -> None:
    """The qualifying standings and the cut line: who is through, who is equal at the line, who is out."""
    t = _load(db_url, tournament_id)
    c = t.the_cut()
    status(
        _("%(entrants)d entrants: %(qualifiers)d qualify, a bracket of %(size)d with %(byes)d byes")
        % {
            "entrants": t.entrants(),
            "qualifiers": c.qualifiers,
            "size": _bracket_size(c.qualifiers),
            "byes": _byes(c.qualifiers),
        }
    )
    ranked(
        [dict(r.as_dict(), cut=mark) for r, mark in zip(t.standings(), t.cut_marks(), strict=True)],
        ["rank", "player", "card", "game_points", "wins", "spread", "games", "cut"],
        as_json,
        lambda r: {"cut": _(_CUT_WORDS[r["cut"]])},
    )


def _bracket_size(qualifiers: int) -> int:
    from cribboard.tournament.cut import bracket_size

    return bracket_size(qualifiers)


def _byes(qualifiers: int) -> int:
    from cribboard.tournament.cut import byes

    return byes(qualifiers)


@tournament.command("cut")
@click.option(
    "--take",
    multiple=True,
    callback=names_as_typed,
    help="A player equal at the cut line who goes through (as many as the places open; by number where a "
    "name is shared).",
)
@TOURNAMENT.listed
def tournament_cut(take: tuple[str, ...], tournament_id: int | None, db_url: str, as_json: bool) -> None:
    """Make the cut once every qualifying game is in: the qualifiers seeded, the bracket drawn."""
    from cribboard.tournament import director

    db = open_db(db_url)
    t = director.make_cut(db, director.load(db, tournament_id), take)
    q = len(t.seeds or [])
    status(
        _("the cut is made: %(q)d qualifiers, a bracket of %(size)d, the top %(byes)d with a bye")
        % {"q": q, "size": _bracket_size(q), "byes": _byes(q)}
    )
    _show_bracket(t, 1, as_json)


def _show_bracket(t: "Tournament", round_no: int | None, as_json: bool) -> None:
    from cribboard.tournament import director

    rows = director.bracket_rows(t)
    if round_no is not None:
        rows = [r for r in rows if r["round"] == round_no]
    emit(
        [dict(r) for r in rows],
        ["round", "match", "table", "seeds", "players", "best_of", "wins", "winner"],
        as_json,
        lambda r: {
            "seeds": " - ".join(str(s) for s in r["seeds"] if s is not None),
            "players": _("%s (bye)") % r["players"][0] if r["bye"] else " - ".join(p or "?" for p in r["players"]),
            "wins": "" if r["bye"] else "-".join(str(w) for w in r["wins"]),
        },
    )


@tournament.command("bracket")
@click.option("--round", "round_no", type=ROW_ID, help="One round of the playoffs (all of them if not given).")
@TOURNAMENT.listed
def tournament_bracket(round_no: int | None, tournament_id: int | None, db_url: str, as_json: bool) -> None:
    """The playoff bracket: every match, its table, its games won so far and its winner."""
    _show_bracket(_load(db_url, tournament_id), round_no, as_json)


@tournament.command("result", context_settings={"ignore_unknown_options": True})
@click.argument("first", callback=names_as_typed)
@click.argument("first_score", type=SCORE)
@click.argument("second", callback=names_as_typed)
@click.argument("second_score", type=SCORE)
@click.option("--game", "game_no", type=ROW_ID, help="Which game of the match (the next if not given): to fix one.")
@click.option("--to", "target", type=int, default=121, show_default=True, help="What the game was played to.")
@TOURNAMENT.chosen
def tournament_result(
    first: str,
    first_score: int,
    second: str,
    second_score: int,
    game_no: int | None,
    target: int,
    tournament_id: int | None,
    db_url: str,
) -> None:
    """Enter a playoff game by hand: `cribboard tournament result Ann 121 Bob 95` (it stands in for the
    board's game of that number; `tournament undo` takes it back)."""
    from cribboard.tournament import director

    db = open_db(db_url)
    t, slot = director.enter(
        db, director.load(db, tournament_id), (first, second), (first_score, second_score), game_no, target
    )
    match = director.playoffs_of(t).matches[slot]
    status(
        _("%(a)s %(sa)d, %(b)s %(sb)d entered: the match stands %(wins)s (the higher seed's first)")
        % {"a": first, "sa": first_score, "b": second, "sb": second_score, "wins": "-".join(map(str, match.wins))}
    )


@tournament.command("flags")
@TOURNAMENT.listed
def tournament_flags(tournament_id: int | None, db_url: str, as_json: bool) -> None:
    """The boards' playoff games that were not counted: a game after its match was won, or one that fits no
    match (the wrong table, names no match has); and the games whose players' phones disagree (`tournament
    result` settles them)."""
    from cribboard.tournament import director

    t = _load(db_url, tournament_id)
    rows = director.flag_rows(t)
    why = {
        director.AFTER_THE_MATCH: _("after its match was won"),
        director.FITS_NO_MATCH: _("fits no match"),
        **{state: word(CLAIM_DISPUTES, state) for state in CLAIM_DISPUTES},
    }
    emit(
        [dict(r) for r in rows],
        ["game", "board", "names", "reason", "round", "match", "said"],
        as_json,
        lambda r: {"names": " - ".join(r["names"]), "reason": why[r["reason"]]},
    )


@tournament.command("send")
@port_option
@TOURNAMENT.chosen
def tournament_send(port: str | None, tournament_id: int | None, db_url: str) -> None:
    """Tell a board on USB its playoff match: the pair (the higher seed on track 1) and the match's length.
    (A board on the club's WiFi is told with the server's next answer.)"""
    from cribboard import seats

    t = _load(db_url, tournament_id)
    link = open_link(port)
    try:
        sent = seats.send_match(link, t)
    finally:
        link.close()
    status(
        _("board %(board)s: %(a)s against %(b)s, best of %(n)d")
        % {"board": sent.board, "a": sent.names[0], "b": sent.names[1], "n": sent.best_of}
    )


@tournament.command("undo")
@TOURNAMENT.chosen
def tournament_undo(tournament_id: int | None, db_url: str) -> None:
    """Take back the last playoff game entered by hand."""
    from cribboard.tournament import director

    db = open_db(db_url)
    _t, undone = director.undo(db, director.load(db, tournament_id))
    if undone is None:
        raise UsageError(_("no playoff game entered by hand to undo"))
    status(
        _("round %(round)d, match %(match)d, game %(game)d taken back")
        % {"round": undone["round"], "match": int(str(undone["slot"])) + 1, "game": undone["game_no"]}
    )


@tournament.command("places")
@TOURNAMENT.listed
def tournament_places(tournament_id: int | None, db_url: str, as_json: bool) -> None:
    """The final places: the qualifiers by how far they went (those still playing unplaced), then the rest
    in the qualifying's order."""
    from cribboard.tournament import printouts

    rows = printouts.places_rows(_load(db_url, tournament_id))
    emit(rows, _PLACES_COLUMNS, as_json)


@tournament.command("export")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@output_option
@TOURNAMENT.chosen
def tournament_export(fmt: str, output: str, tournament_id: int | None, db_url: str) -> None:
    """The final places as CSV, or the whole tournament as JSON (its qualifying, seeds, matches, places)."""
    from cribboard.tournament import printouts

    t = _load(db_url, tournament_id)
    text = json.dumps(printouts.as_data(t), indent=1) + "\n" if fmt == "json" else printouts.places_csv(t)
    write_out(output, text)


@tournament.command("print")
@click.argument("folder", type=click.Path(file_okay=False), callback=folder_given)
@SERVER_OPTION
@TOURNAMENT.chosen
def tournament_print(folder: str, server: str | None, tournament_id: int | None, db_url: str) -> None:
    """Printable PDFs into FOLDER: the qualifying's standings and a scorecard an entrant (standings.pdf,
    card-NNN-NAME.pdf), and the bracket once the cut is made (bracket.pdf)."""
    from cribboard.reports import outfile
    from cribboard.tournament import director, printouts

    db = open_db(db_url)
    t = director.load(db, tournament_id)
    where = print_night(db, t.night, folder, server)
    if t.playoffs is not None:
        outfile.write(where / "bracket.pdf", printouts.bracket_pdf(t))
        status(_("wrote %s") % (where / "bracket.pdf"))


def _final_places(t: "Tournament") -> Rows:
    from cribboard.tournament import printouts

    return printouts.places_rows(t), _PLACES_COLUMNS


TOURNAMENT.add_end(
    tournament,
    N_("tournament %d has ended"),
    _final_places,
    help="End the tournament: its places are final, and its boards are no longer told its matches.",
)
TOURNAMENT.add_reopen(
    tournament,
    N_("tournament %d is open again"),
    help="Undo the tournament's end (a slip), until another night or tournament begins: its matches are seated again.",
)
TOURNAMENT.add_codes(
    tournament,
    lambda t: t.night,
    help="Each entrant's code: it opens their own page of the tournament on their phone (their seat, their "
    "standing, their match). Entrants with none are given one; --new gives one a new code and voids the old.",
)
TOURNAMENT.add_list(
    tournament,
    ["id", "name", "format", "games", "started_at", "cut_at", "ended_at"],
    help="Every tournament, the latest last.",
)
