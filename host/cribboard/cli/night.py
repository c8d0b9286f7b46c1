# A club night: the director's commands, from the draw to the final
# standings (docs/night.md walks through one).
import json
import shlex
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from cribboard.cli.base import cli
from cribboard.cli.columns import CLAIM_DISPUTES, RESULT_SOURCES, word
from cribboard.cli.events import EventKind, Rows, beginning, ranked, scheme_given, scheme_options
from cribboard.cli.localized import TranslatedGroup
from cribboard.cli.options import (
    ROW_ID,
    SCORE,
    db_exists,
    db_option,
    folder_given,
    json_option,
    names_as_typed,
    open_db,
    open_link,
    output_option,
    port_option,
    read_db,
    seed_option,
    tables_option,
)
from cribboard.cli.output import emit, status, write_out
from cribboard.errors import UsageError
from cribboard.night.draw import ROUNDS
from cribboard.text.i18n import N_, _

if TYPE_CHECKING:
    from pathlib import Path

    from cribboard.night.director import Night
    from cribboard.store import Database


def _from_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--from",
        "start",
        type=ROW_ID,
        help="The first round to draw again (default: the one after the round in play, which is seated; give "
        "the round in play to draw it again too).",
    )(fn)


NIGHT: "EventKind[Night]" = EventKind(
    "night", "cribboard.night.director", "cribboard.store.nights", help="Which night (its id); the latest if not given."
)


@cli.group(cls=TranslatedGroup)
def night():
    """A club night: a tournament the boards run (the ACC's grass roots way by default: nine games, each
    against another player; 2 game points a win, 3 a skunk; ranked by game points, games won, spread)."""


@night.command("new")
@click.argument("players", nargs=-1, required=True)
@click.option(
    "--rounds",
    type=click.IntRange(1, 99),
    help="Games a player plays (default: 9, or the most the players can play with no one met twice).",
)
@tables_option
@seed_option
@click.option("--name", help="The night's name (its date if not given).")
@scheme_options
@db_option
@json_option
def night_new(
    players: tuple[str, ...],
    rounds: int | None,
    tables: list[tuple[str, str | None]],
    seed: int | None,
    name: str | None,
    db_url: str,
    as_json: bool,
    **parts: Any,
) -> None:
    """Begin a night: the players present drawn into rounds, at the tables."""
    from cribboard.cli.player_names import checked
    from cribboard.night import director

    names = [checked(p) for p in players]
    if rounds is None:
        rounds = director.rounds_for(len(names))
        if rounds < ROUNDS:
            status(
                _("%(players)d players: %(rounds)d rounds, the most with no one met twice")
                % {"players": len(names), "rounds": rounds}
            )
    db, seats, the_scheme = beginning(db_url, tables, len(names), parts, director.club_scheme)
    n = director.begin(db, names, rounds, seats, seed, name, the_scheme)
    say_namesakes(n)
    status(
        _("night %(id)d begins: %(players)d players, %(rounds)d rounds at %(tables)d tables; its seed is %(seed)d")
        % {"id": n.id, "players": len(n.players), "rounds": n.rounds, "tables": len(seats), "seed": n.seed}
    )
    wooden = [t for t, board in seats if board is None]
    if wooden:
        status(
            _("no board at table %s: its results are entered by hand (`cribboard night result`)") % ", ".join(wooden)
        )
    show_round(n, 1, as_json)


@night.command("scheme")
@scheme_options
@db_option
@json_option
def night_scheme(db_url: str, as_json: bool, **parts: Any) -> None:
    """Show the club's scheme, or set its parts (for the nights begun after)."""
    from cribboard.night import director, scheme

    given = scheme_given(parts)
    # A new club's is the default: shown without a database made for it, and one made only to keep a scheme
    # that is right.
    now = _club_scheme(db_url)
    if given:
        now = scheme.checked(**{**now.__dict__, **given})  # (checked before a database is made to keep it)
        director.set_club_scheme(open_db(db_url, create=True), now)
        status(_("the club's scheme is set"))
    if as_json:
        click.echo(json.dumps(now.__dict__, indent=1))
        return
    for part, label in _SCHEME_LABELS.items():
        value = getattr(now, part)
        click.echo("%s: %s" % (_(label), (_("yes") if value else _("no")) if isinstance(value, bool) else value))


def _club_scheme(db_url: str) -> Any:
    """The club's scheme: a new club's (no database yet, or one with nothing in it) is the default."""
    from cribboard.night import director, scheme
    from cribboard.store.engine import EmptyDbError

    if not db_exists(db_url):
        return scheme.Scheme()
    try:
        return director.club_scheme(read_db(db_url))
    except EmptyDbError:
        return scheme.Scheme()


_SCHEME_LABELS = {  # (the JSON keeps the parts' names: a script's keys never change with the language)
    "win": N_("game points for a win"),
    "skunk": N_("game points for a skunk"),
    "double_skunk": N_("game points for a double skunk"),
    "loss": N_("game points for a loss"),
    "bye_points": N_("game points for a bye"),
    "bye_wins": N_("a bye counts as a game won"),
    "bye_spread": N_("spread for a bye"),
}


def say_namesakes(n: "Night") -> None:
    """Players who share a name are told apart by number: said, in case one was typed twice by mistake."""
    for name, numbers in n.roster.shared().items():
        status(
            _("%(count)d players are named %(name)s: they are %(which)s (name one by number where it matters)")
            % {"count": len(numbers), "name": name, "which": ", ".join(n.label(p) for p in numbers)}
        )


_load = NIGHT.read


def _round_rows(n: "Night", number: int) -> list[dict[str, Any]]:
    from cribboard.night.results import pair

    rows = []
    for g in n.drawn[number - 1]:
        r = n.filed.results.get((number, pair(g.first, g.second)))
        rows.append(
            {
                "round": number,
                "table": g.table,
                "board": n.tables.board_at(g.table, number),
                "first": n.label(g.first),
                "second": None if g.second is None else n.label(g.second),
                "numbers": [g.first, g.second],
                "scores": None if r is None or g.second is None else list(r.scores),
                "winner": None if r is None else n.label(r.winner),
                "source": None if r is None else r.source,
            }
        )
    return rows


def show_round(n: "Night", number: int, as_json: bool) -> None:
    if not 1 <= number <= len(n.drawn):
        raise UsageError(
            _("night %(night)d has rounds 1 to %(last)d, not %(round)d")
            % {"night": n.id, "last": len(n.drawn), "round": number}
        )
    rows = _round_rows(n, number)
    emit(
        rows,
        ["table", "board", "first", "second", "scores", "winner", "source"],
        as_json,
        lambda r: {
            "board": r["board"] and r["board"][:8],
            "second": r["second"] or _("(bye)"),
            "scores": "-".join(map(str, r["scores"] or [])) or None,
            "source": r["source"] and word(RESULT_SOURCES, r["source"]),
        },
    )


@night.command("round")
@click.argument("number", type=ROW_ID, required=False)
@NIGHT.listed
def night_round(number: int | None, night_id: int | None, db_url: str, as_json: bool) -> None:
    """Who plays whom at which table in a round (the round in play if none is given), and the results in."""
    n = _load(db_url, night_id)
    show_round(n, number or n.round_now(), as_json)


@night.command("standings")
@NIGHT.listed
def night_standings(night_id: int | None, db_url: str, as_json: bool) -> None:
    """The night's standings: game points, then games won, then spread."""
    ranked(*_final_standings(_load(db_url, night_id)), as_json)


@night.command("card")
@click.argument("player", required=False, callback=names_as_typed)
@NIGHT.listed
def night_card(player: str | None, night_id: int | None, db_url: str, as_json: bool) -> None:
    """A player's scorecard (everyone's if no one is named): game by game, the opponent, won or lost, game
    points, spread and the running totals."""
    n = _load(db_url, night_id)
    rows = n.standings()
    if player is not None:
        number = n.roster.find(player)
        rows = [r for r in rows if r.number == number]
    if as_json:
        click.echo(json.dumps([r.as_dict(lines=True) for r in rows], indent=1))
        return
    for r in rows:
        click.echo("%s  %s  %s %d" % (r.player, r.card(), _("spread"), r.spread))
        emit(
            [ln.as_dict() for ln in r.lines],
            ["round", "table", "opponent", "result", "score", "game_points", "spread", "total_points", "total_spread"],
            False,
            lambda ln: {
                "opponent": ln["opponent"] or _("(bye)"),
                "result": _("won") if ln["won"] else _("lost"),
                "score": "%d-%d" % (ln["score"], ln["against"]),
            },
        )


@night.command("tables")
@NIGHT.listed
def night_tables(night_id: int | None, db_url: str, as_json: bool) -> None:
    """The night's tables, and the board at each in the round in play (none: results by hand)."""
    n = _load(db_url, night_id)
    number = n.round_now()
    rows = [
        {
            "table": table,
            "board": n.tables.board_at(table, number),
            "round": number,
            "changes": [{"from_round": r, "board": b} for r, b in n.tables.changes.get(table, ())],
        }
        for table in n.tables.names
    ]
    emit(
        rows,
        ["table", "board", "round"],
        as_json,
        lambda r: {"board": r["board"] or _("(none: by hand)")},
    )


@night.command("table")
@click.argument("table")
@click.argument("board", required=False)
@click.option("--none", "no_board", is_flag=True, help="Take the table's board away: its results by hand.")
@click.option("--from", "start", type=ROW_ID, help="The first round the change is for (default: the round in play).")
@NIGHT.chosen
def night_table(
    table: str, board: str | None, no_board: bool, start: int | None, night_id: int | None, db_url: str
) -> None:
    """Put a board at a table (BOARD: a prefix of its id), as one is brought or replaces one that died, or
    take the table's board away (--none): its results are then entered by hand. A board at another table
    leaves that one."""
    from cribboard.night import director

    if (board is None) == (not no_board):
        raise UsageError(_("name the board to put at table %s, or give --none to take its board away") % table)
    db = open_db(db_url)
    before = director.load(db, night_id)
    n = director.set_board(db, before, table, board, start)
    number = n.round_now() if start is None else start
    put = n.tables.board_at(table, number)
    if put is not None:
        status(
            _("table %(table)s has board %(board)s from round %(round)d")
            % {"table": table, "board": put, "round": number}
        )
        return
    status(
        _("table %(table)s has no board from round %(round)d: its results are entered by hand")
        % {"table": table, "round": number}
    )
    gone = before.tables.board_at(table, number)
    if gone is not None:
        _say_game_by_hand(n, gone, table, number)


def _say_game_by_hand(n: "Night", gone: str, table: str, number: int) -> None:
    """What the director types for the game a board taken away (unplugged, dead) was to report: the pair
    at its table in that round, if that game is not in yet. Its game under way on the board never counts."""
    from cribboard.night import results

    for g in n.drawn[number - 1] if 1 <= number <= len(n.drawn) else ():
        if (
            g.table == table
            and g.second is not None
            and (number, results.pair(g.first, g.second)) not in n.filed.results
        ):
            status(
                _(
                    "board %(board)s's game of round %(round)d at table %(table)s does not count: once "
                    "%(first)s and %(second)s have played it out, `cribboard night result %(round)d %(first_arg)s "
                    "SCORE %(second_arg)s SCORE`"
                )
                % {
                    "board": gone,
                    "round": number,
                    "table": table,
                    "first": n.label(g.first),
                    "second": n.label(g.second),
                    "first_arg": shlex.quote(n.label(g.first)),
                    "second_arg": shlex.quote(n.label(g.second)),
                }
            )


@night.command("flags")
@NIGHT.listed
def night_flags(night_id: int | None, db_url: str, as_json: bool) -> None:
    """The boards' games that were not counted: the wrong table, the wrong pair, a pair's game twice, or
    one a scorecard entered by hand contradicts (crosschecked: the card counts; `night take` the board's);
    and the games whose players' phones disagree (`night result` settles them)."""
    from cribboard.event import claims
    from cribboard.night import results

    n = _load(db_url, night_id)
    why = {
        results.WRONG_TABLE: _("the pair is drawn to another table"),
        results.WRONG_PAIR: _("the draw never seats these two together"),
        results.TWICE: _("the pair's game at this table is in already"),
        results.NOT_TWO: _("not a game for two"),
        results.CROSSCHECK: _("the scorecard entered by hand says otherwise (it counts)"),
        **{state: word(CLAIM_DISPUTES, state) for state in CLAIM_DISPUTES},
    }
    rows: list[dict[str, Any]] = [
        {
            "game": f.game_id,
            "table": f.at,
            "board": f.board,
            "names": list(f.names),
            "reason": f.reason,
            "round": f.round,
            "due": [n.label(p) for p in f.due],
            "drawn_table": f.table,
            "card": None if f.card is None else list(f.card),
            "said": None,
        }
        for f in n.filed.flags
    ]
    for (number, _pair), s in sorted(n.filed.claims.items(), key=lambda kv: kv[0][0]):
        if s.state in (claims.DISAGREE, claims.REFUSED):
            seat = n.seat_of(number, s.first.by)
            assert seat is not None and seat.second is not None  # (a claim kept open is of a seat drawn)
            rows.append(
                {
                    "game": None,
                    "table": seat.table,
                    "board": None,
                    "names": [n.label(seat.first), n.label(seat.second)],
                    "reason": s.state,
                    "round": number,
                    "due": [],
                    "drawn_table": seat.table,
                    "card": None,
                    "said": claims.said(s, n.label),
                }
            )
    emit(
        rows,
        ["game", "table", "names", "reason", "round", "said"],
        as_json,
        lambda r: {"names": " - ".join(r["names"]), "reason": why[r["reason"]]},
    )


@night.command("result", context_settings={"ignore_unknown_options": True})  # (a score of -5 is no option)
@click.argument("round_no", metavar="ROUND", type=ROW_ID)
@click.argument("first", callback=names_as_typed)
@click.argument("first_score", type=SCORE)
@click.argument("second", callback=names_as_typed)
@click.argument("second_score", type=SCORE)
@click.option("--to", "target", type=int, default=121, show_default=True, help="What the game was played to.")
@NIGHT.chosen
def night_result(
    round_no: int,
    first: str,
    first_score: int,
    second: str,
    second_score: int,
    target: int,
    night_id: int | None,
    db_url: str,
) -> None:
    """Enter or fix a game's result by hand: `cribboard night result 3 Ann 121 Bob 95` (it stands in for the
    board's; `night undo` takes it back)."""
    from cribboard.night import director

    n = _load(db_url, night_id)
    players = director.players_named(n, round_no, (first, second))
    director.enter(open_db(db_url), n, round_no, players, (first_score, second_score), target)
    status(
        _("round %(round)d: %(a)s %(sa)d, %(b)s %(sb)d entered")
        % {"round": round_no, "a": n.label(players[0]), "sa": first_score, "b": n.label(players[1]), "sb": second_score}
    )


@night.command("take")
@click.argument("game", type=ROW_ID)
@click.argument("players", nargs=-1, callback=names_as_typed)
@click.option("--round", "round_no", type=ROW_ID, help="The round it counts for (the pair's, if not given).")
@NIGHT.chosen
def night_take(game: int, players: tuple[str, ...], round_no: int | None, night_id: int | None, db_url: str) -> None:
    """Count a flagged game after all (`night flags`): naming who really played, track 1 first, if the
    board had other names."""
    from cribboard.night import director

    n = _load(db_url, night_id)
    director.take_flagged(open_db(db_url), n, game, round_no, players)
    status(_("game %d is counted") % game)


@night.command("undo")
@NIGHT.chosen
def night_undo(night_id: int | None, db_url: str) -> None:
    """Take back the last result entered by hand (it stays in the history)."""
    from cribboard.night import director

    n = _load(db_url, night_id)
    _n, undone = director.undo(open_db(db_url), n)
    if undone is None:
        raise UsageError(_("no result entered by hand to undo"))
    status(
        _("round %(round)d: %(a)s %(sa)d, %(b)s %(sb)d taken back")
        % {
            "round": undone["round"],
            "a": n.label(undone["first"]),
            "sa": undone["first_score"],
            "b": n.label(undone["second"]),
            "sb": undone["second_score"],
        }
    )


@night.command("history")
@NIGHT.listed
def night_history(night_id: int | None, db_url: str, as_json: bool) -> None:
    """Every result entered by hand, the ones taken back too, and every result the players' phones entered,
    confirmed or refused (by: the player; a refusal has no scores)."""
    from cribboard.night import director

    db = read_db(db_url)
    n = director.load(db, night_id)
    emit(
        [
            {
                **row,
                "first": n.label(row["first"]),
                "second": n.label(row["second"]),
                "numbers": [row["first"], row["second"]],
                "by": None if row["by"] is None else n.label(row["by"]),
            }
            for row in director.history(db, n)
        ],
        ["id", "round", "first", "first_score", "second", "second_score", "by", "game_id", "entered_at", "undone_at"],
        as_json,
        lambda r: {"by": r["by"] or _("the director")},
    )


def _field_after(db: "Database", n: "Night", leaving: int) -> None:
    """A tournament's qualifying keeps two players or more for its playoff: a withdrawal that would leave
    fewer is refused before it is drawn (a night's leave has no such bound)."""
    from cribboard.store import tournaments
    from cribboard.tournament import director

    if tournaments.of_night(db, n.id) is not None:
        director.check_field(len(n.players), len(n.players) - len(n.present) + leaving)


def _change_room(
    db_url: str,
    night_id: int | None,
    joining: Sequence[str],
    leaving: Sequence[str],
    start: int | None,
    as_json: bool,
    namesakes: bool = False,
) -> None:
    from cribboard.cli.player_names import checked
    from cribboard.night import director

    db = open_db(db_url)
    before = director.load(db, night_id)
    if leaving:
        _field_after(db, before, len(set(leaving)))
    n, start = director.change_room(db, before, [checked(p) for p in joining], leaving, start, namesakes)
    status(_("rounds %(first)d to %(last)d are drawn again") % {"first": start, "last": n.rounds})
    if namesakes:
        say_namesakes(n)
    added = n.tables.names[len(before.tables.names) :]
    if added:
        status(
            _("a table more for them: table %s, with no board (its results by hand, or `cribboard night table`)")
            % ", ".join(added)
        )
    show_round(n, start, as_json)


@night.command("join")
@click.argument("players", nargs=-1, required=True, callback=names_as_typed)
@click.option(
    "--namesake",
    is_flag=True,
    help="Each is another player of a name already in the night (told apart by number), not one coming back.",
)
@_from_option
@NIGHT.listed
def night_join(
    players: tuple[str, ...], namesake: bool, start: int | None, night_id: int | None, db_url: str, as_json: bool
) -> None:
    """Seat late arrivals (one who left and comes back is the same player again): the rounds not yet begun
    are drawn again with them."""
    _change_room(db_url, night_id, players, (), start, as_json, namesake)


@night.command("leave")
@click.argument("players", nargs=-1, required=True, callback=names_as_typed)
@_from_option
@NIGHT.listed
def night_leave(players: tuple[str, ...], start: int | None, night_id: int | None, db_url: str, as_json: bool) -> None:
    """Let players go (by name, or by number where a name is shared: "#3"): the rounds not yet begun are
    drawn again without them (their games so far stand)."""
    _change_room(db_url, night_id, (), players, start, as_json)


def _final_standings(n: "Night") -> Rows:
    return [r.as_dict() for r in n.standings()], [
        "rank",
        "player",
        "card",
        "game_points",
        "wins",
        "spread",
        "games",
        "byes",
    ]


NIGHT.add_end(
    night,
    N_("night %d has ended"),
    _final_standings,
    help="End the night: its standings are final, and games stored after are not its.",
)
NIGHT.add_reopen(
    night,
    N_("night %d is open again"),
    help="Undo the night's end (a slip), until another night begins: its results can change again.",
)
NIGHT.add_codes(
    night,
    lambda n: n,
    help="Each player's code: it opens their own page of the night on their phone (their seat, their game, their "
    "standing). Players with none are given one; --new gives a player a new code and voids the old.",
)
NIGHT.add_list(
    night, ["id", "name", "players", "rounds", "started_at", "ended_at"], help="Every night, the latest last."
)


@night.command("export")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@click.option("--cards", is_flag=True, help="CSV: every player's scorecard, a line a round (JSON has both).")
@output_option
@NIGHT.chosen
def night_export(fmt: str, cards: bool, output: str, night_id: int | None, db_url: str) -> None:
    """The night's standings (or scorecards) as CSV, or the whole night as JSON."""
    from cribboard.night import printouts

    n = _load(db_url, night_id)
    rows = n.standings()
    if fmt == "json":
        text = json.dumps(printouts.as_data(n, rows), indent=1) + "\n"
    else:
        text = printouts.cards_csv(n, rows) if cards else printouts.standings_csv(rows)
    write_out(output, text)


def _server_url(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not (
        value.startswith(("http://", "https://")) and len(value) <= 200 and value.isprintable()
    ):
        raise click.BadParameter(_("the server's address as serve prints it, http://HOST:PORT/, not %r") % value[:40])
    return value


SERVER_OPTION = click.option(
    "--server",
    metavar="URL",
    callback=_server_url,
    help="The club's server's address (as `cribboard serve` prints it): each card then says where the "
    "player's own page is, with their code.",
)


@night.command("print")
@click.argument("folder", type=click.Path(file_okay=False), callback=folder_given)
@SERVER_OPTION
@NIGHT.chosen
def night_print(folder: str, server: str | None, night_id: int | None, db_url: str) -> None:
    """Printable PDFs into FOLDER: the standings (standings.pdf), a scorecard a player (card-NNN-NAME.pdf),
    each with the player's code for their own page (given to players who had none), and every code on a slip
    to cut out and hand over (codes.pdf)."""
    from cribboard.night import director

    db = open_db(db_url)
    print_night(db, director.load(db, night_id), folder, server)


def print_night(db: "Database", n: "Night", folder: str, server: str | None) -> "Path":
    """The night's standings, a scorecard a player and the codes' handout as PDFs into folder (made if need
    be), each card with the player's code (given to those who had none); the folder."""
    from pathlib import Path

    from cribboard.errors import CribboardError
    from cribboard.night import printouts, standings
    from cribboard.night.codes import given
    from cribboard.reports import outfile

    rows = n.standings()
    try:
        import matplotlib  # noqa: F401  (the plot extra)
        import segno  # noqa: F401  (and its QR codes)
    except ImportError:
        raise CribboardError(_('printing needs matplotlib and segno: pip install "cribboard[plot]"')) from None
    where = Path(folder)
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CribboardError(_("cannot write %s: %s") % (where, e.strerror or e)) from None
    codes = given(db, n)
    status(_("printing the standings and %(n)d scorecards into %(folder)s...") % {"n": len(rows), "folder": where})
    outfile.write(where / "standings.pdf", printouts.standings_pdf(n, rows, standings.paid(rows)))
    outfile.write(where / "codes.pdf", printouts.handout_pdf(n, codes, server))
    for position, row in enumerate(rows, 1):
        code = codes[row.number]
        card = printouts.card_pdf(n, row, printouts.page_line(code, server), printouts.page_link(code, server))
        outfile.write(where / printouts.file_name(position, row), card)
        if position % 10 == 0 and position < len(rows):
            status(_("  %(done)d of %(n)d scorecards") % {"done": position, "n": len(rows)})
    status(_("wrote the standings and %(n)d scorecards in %(folder)s") % {"n": len(rows), "folder": where})
    return where


@night.command("season")
@click.option("--since", metavar="DATE", help="Only nights begun on this date or later (YYYY-MM-DD).")
@click.option("--until", metavar="DATE", help="Only nights begun up to this date, that day included.")
@db_option
@json_option
def night_season(since: str | None, until: str | None, db_url: str, as_json: bool) -> None:
    """The season's table: the nights added up (ended nights only), ranked by game points, games won, spread."""
    from cribboard.night import director, season
    from cribboard.reports.standings import date_bound

    first, last = date_bound(since, "--since"), date_bound(until, "--until", end=True)
    rows = season.table(director.ended_standings(read_db(db_url), first, last))
    ranked(
        [r.as_dict() for r in rows],
        ["rank", "player", "nights", "firsts", "paid", "game_points", "wins", "spread"],
        as_json,
    )


@night.command("send")
@port_option
@click.option(
    "--round", "round_no", type=ROW_ID, help="The round whose players to send (the round in play if not given)."
)
@NIGHT.chosen
def night_send(port: str | None, round_no: int | None, night_id: int | None, db_url: str) -> None:
    """Give a board on USB its two players for the round: track 1 deals first. (A board on the club's WiFi
    is given them with the server's next answer.)"""
    from cribboard import seats

    n = _load(db_url, night_id)
    link = open_link(port)
    try:
        sent = seats.send_night(link, n, round_no)
    finally:
        link.close()
    status(
        _("table %(table)s, round %(round)d: %(first)s (deals first) against %(second)s")
        % {"table": sent.table, "round": sent.round, "first": sent.first, "second": sent.second}
    )
