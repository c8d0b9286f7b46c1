# The results database: listings, statistics, standings, export, charts,
# and what boards sent that was kept apart (rejected records, crashes).
import json
from collections.abc import Callable
from typing import IO, Any

import click

from cribboard.cli.base import cli
from cribboard.cli.columns import ENTRY_KINDS, word
from cribboard.cli.options import ROW_ID, db_option, json_option, open_db, output_option, read_db
from cribboard.cli.output import emit, print_table, status, wrapped, write_out
from cribboard.errors import CribboardError, UsageError
from cribboard.text.error_words import said
from cribboard.text.i18n import _


def _league_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(
        (
            db_option,
            click.option("--since", metavar="DATE", help="Only games from this date on (YYYY-MM-DD)."),
            click.option("--until", metavar="DATE", help="Only games up to this date, that day included."),
            click.option("--board", help="Only this board's games (a prefix of its id will do)."),
            json_option,
        )
    ):
        fn = option(fn)
    return fn


def _league_games(db_url: str, since: str | None, until: str | None, board: str | None) -> list[Any]:
    from cribboard.reports import standings as st

    first, last = st.date_bound(since, "--since"), st.date_bound(until, "--until", end=True)  # mistakes first
    return st.played(read_db(db_url), first, last, board)


@cli.command()
@_league_options
def standings(db_url: str, since: str | None, until: str | None, board: str | None, as_json: bool) -> None:
    """League standings: a row a player, every game synced (ACC game points: 2 a win, 3 a skunk win),
    ranked by game points, then spread, then games won (the league's order; a club night's is points,
    games won, spread)."""
    from cribboard.ranking import LEAGUE
    from cribboard.reports import standings as st

    rows = st.table(_league_games(db_url, since, until, board))
    emit(
        rows,
        ["rank", "player", "games", "wins", "losses", "skunks_given", "skunks_taken", "game_points", "spread"],
        as_json,
    )
    if rows:
        status(wrapped(LEAGUE.note()))


@cli.command("head-to-head")
@click.argument("player_a")
@click.argument("player_b")
@_league_options
def head_to_head(
    player_a: str, player_b: str, db_url: str, since: str | None, until: str | None, board: str | None, as_json: bool
) -> None:
    """Two players' games against each other, and how each fared."""
    from cribboard.reports import standings as st

    st.check_pair(player_a, player_b)  # a mistake in the command first
    result = st.head_to_head(_league_games(db_url, since, until, board), player_a, player_b)
    if as_json:
        click.echo(json.dumps(result, indent=1))
        return
    print_table(
        result["players"],
        ["player", "games", "wins", "losses", "skunks_given", "skunks_taken", "game_points", "spread"],
    )
    games = [dict(g, score=" - ".join(str(s) for s in g["scores"])) for g in result["games"]]
    print_table(games, ["id", "when", "board", "winner", "score", "skunk"])


@cli.command("crashes")
@db_option
@click.option("--board", help="Only this board (a prefix of its id will do).")
@json_option
def crashes_cmd(db_url: str, board: str | None, as_json: bool) -> None:
    """Crashes boards logged (sync fetches them): the traceback, the boot and
    how long after it. The board restarted each time with its game."""
    from cribboard import store

    emit(
        store.reports.crashes(read_db(db_url), board),
        ["id", "board", "boot", "after", "received_at", "error"],
        as_json,
        lambda r: {"error": (r["text"].strip().splitlines() or [""])[-1], "after": "%.1f s" % (r["uptime_ms"] / 1000)},
    )


@cli.group("rejected", invoke_without_command=True)
@db_option
@click.option("--board", help="Only this board (a prefix of its id will do).")
@json_option
@click.pass_context
def rejected_cmd(ctx: click.Context, db_url: str, board: str | None, as_json: bool) -> None:
    """Records a board sent that failed the checks: kept apart, raw, with the reason. `rejected take ID`
    takes one into the games once it is checked."""
    from cribboard import store
    from cribboard.records import said_reason

    if ctx.invoked_subcommand is not None:
        return
    rows = store.reports.rejected(read_db(db_url), board)
    data = {r["id"]: r.pop("reason_data") for r in rows}  # JSON keeps the English reason, as stored
    emit(
        rows,
        ["id", "board", "seq", "received_at", "reason", "raw"],
        as_json,
        lambda r: {"raw": r["raw"][:60], "reason": said_reason(r["reason"], data[r["id"]])},
    )


@rejected_cmd.command("take")
@click.argument("ident", metavar="ID", type=ROW_ID)
@db_option
@json_option
def rejected_take(ident: int, db_url: str, as_json: bool) -> None:
    """Take the record kept apart with this id (cribboard rejected lists them) into the games, once a
    director has checked it: a wiped board's game that came under a number another game holds, or one a
    newer cribboard's checks now pass. Its checks are run again; it leaves the list."""
    from datetime import datetime, timezone

    from cribboard import intake
    from cribboard.records import said_reason

    db = open_db(db_url)
    try:
        board, seq = intake.take_apart(db, ident, datetime.now(timezone.utc).isoformat(timespec="seconds"))
    except intake.NotTaken as e:
        if e.kind == "none":
            raise CribboardError(_("no record kept apart has the id %d (taken already?)") % ident) from None
        if e.kind == "fails":
            reason = e.values["reason"]
            why = said_reason(str(reason), json.dumps(reason.data) if reason.data else None)
            raise CribboardError(
                _("record %(id)d still fails its checks: %(why)s") % {"id": ident, "why": why}
            ) from None
        raise CribboardError(
            _("record %(id)d is a game board %(board)s has stored already (its record %(seq)d)")
            % {"id": ident, "board": e.values["board"], "seq": e.values["seq"]}
        ) from None
    finally:
        db.close()
    if as_json:
        click.echo(json.dumps({"id": ident, "board": board, "seq": seq}))
    else:
        click.echo(_("Record %(id)d of board %(board)s is a game now.") % {"id": ident, "board": board})


@cli.command()
@db_option
@click.option("--board", help="Only this board (a prefix of its id will do).")
@json_option
def matches(db_url: str, board: str | None, as_json: bool) -> None:
    """List the finished games in the database, match by match."""
    from cribboard.reports import stats

    skipped: list[str] = []
    rows = stats.games(read_db(db_url), board, skipped)
    for why in skipped:
        status(_("skipped %s") % why)
    emit(
        rows,
        [
            "id",
            "board",
            "kind",
            "match",
            "game",
            "who",
            "target",
            "scheme",
            "scores",
            "winner",
            "result",
            "game_points",
            "match_winner",
        ],
        as_json,
        lambda r: {
            "who": " v ".join(r["names"]),
            "winner": r["winner"] or (_("draw") if r["result"] == "draw" else None),
            "target": r["target"] or "-",
        },
    )


@cli.command("stats")
@db_option
@json_option
def stats_cmd(db_url: str, as_json: bool) -> None:
    """Per-player and per-board statistics (cribbage), and piquet's parties."""
    from cribboard.reports import stats

    conn = read_db(db_url)
    players, boards, piquet = stats.player_stats(conn), stats.board_stats(conn), stats.piquet_stats(conn)
    if as_json:
        click.echo(json.dumps({"players": players, "boards": boards, "piquet": piquet}, indent=1))
        return
    per_entry = "avg per entry (to the game hole)"  # the taps past 121 never scored (stats.player_stats)
    for p in players:
        p["skunks given"] = "/".join(str(n) for n in p["skunks_given"])
        p["skunks taken"] = "/".join(str(n) for n in p["skunks_taken"])
        p[per_entry] = ", ".join("%s %s" % (word(ENTRY_KINDS, k), v) for k, v in sorted(p["points"].items()))
        show = p["show"] or {}
        for column, key in (
            ("pegging/deal", "pegging_per_deal"),
            ("hand/deal", "hand_per_deal"),
            ("crib/deal dealt", "crib_per_deal_dealt"),
            ("best hand", "best_hand"),
            ("show games", "games"),
        ):
            p[column] = show.get(key, "-")
    print_table(
        players,
        [
            "player",
            "games",
            "wins",
            "matches_won",
            "skunks given",
            "skunks taken",
            per_entry,
            "show games",
            "pegging/deal",
            "hand/deal",
            "crib/deal dealt",
            "best hand",
        ],
    )
    if any(p["show"] is None for p in players):
        click.echo(wrapped("-: %s" % _(stats.NOT_COUNTED)))
    print_table(boards, ["board", "games", "matches", "skunks", "firmware", "last_sync"])
    click.echo(wrapped(_("skunks as single/double/triple")))
    if piquet:
        print_table(
            piquet, ["player", "parties", "wins", "losses", "draws", "rubicons_given", "rubicons_taken", "points"]
        )
        click.echo(
            wrapped(
                _(
                    "piquet: points are the parties' (100 and the difference; a rubicon: 100 and both totals), won "
                    "less lost"
                )
            )
        )


@cli.command()
@db_option
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@click.option(
    "--what",
    type=click.Choice(["games", "barbu"]),
    default="games",
    show_default=True,
    help="Cribbage games, or barbu rubbers.",
)
@output_option
def export(db_url: str, fmt: str, what: str, output: str) -> None:
    """Export every game (JSON: with its full record and events)."""
    import io

    text = io.StringIO()
    _export(db_url, fmt, what, text)
    write_out(output, text.getvalue())


def _export(db_url: str, fmt: str, what: str, output: IO[str]) -> None:
    import csv

    from cribboard.reports import stats
    from cribboard.sheets import barbu as barbu_sheet
    from cribboard.sheets import storage

    conn = read_db(db_url)
    if what == "barbu":
        rows = storage.rubbers(conn)
        if fmt == "json":
            readable = []
            for r in rows:
                try:
                    rubber, names, pairs = storage.load_rubber(conn, r["id"])
                except ValueError as e:  # one bad record must not cost the others
                    status(_("skipped barbu rubber %d: it cannot be read back: %s") % (r["id"], said(e)))
                    continue
                r["record"] = barbu_sheet.record(rubber, names, pairs)
                readable.append(r)
            rows = readable
        else:
            for r in rows:
                for k in range(4):
                    r["player%d" % (k + 1)] = r["names"][k]
                    r["total%d" % (k + 1)] = r["totals"][k]
                pairs = r["partners"] or []
                for k in range(2):  # the partnership game's pooled totals, beside each player's
                    a, b = pairs[k] if pairs else (None, None)
                    r["pair%d" % (k + 1)] = "" if a is None else "%s+%s" % (r["names"][a], r["names"][b])
                    r["pair_total%d" % (k + 1)] = "" if a is None else r["totals"][a] + r["totals"][b]
                del r["names"], r["totals"], r["partners"]
    else:
        skipped: list[str] = []
        rows = stats.games(conn, None, skipped)
        for why in skipped:
            status(_("skipped %s") % why)
    if fmt == "json":
        if what == "games":
            kept = []
            for r in rows:
                try:
                    r["record"] = stats.game(conn, r["id"])[0]
                except ValueError as e:
                    status(_("skipped game %d: its record is not JSON (%s)") % (r["id"], e))
                    continue
                kept.append(r)
            rows = kept
        json.dump(rows, output, indent=1)
        output.write("\n")
        return
    writer = csv.DictWriter(output, fieldnames=list(rows[0]) if rows else ["id"])
    writer.writeheader()
    for r in rows:
        if "scores" in r:
            r["scores"] = " ".join(str(s) for s in r["scores"])
        for key in ("names", "reported"):
            if isinstance(r.get(key), list):
                r[key] = " | ".join(r[key])
        writer.writerow(r)


@cli.command()
@db_option
@click.argument("game_id", type=ROW_ID)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="The PNG to write.")
def plot(db_url: str, game_id: int, output: str) -> None:
    """Draw the race chart of one game (its id from `cribboard matches`)."""
    import importlib.util

    from cribboard.reports import stats

    try:
        found = importlib.util.find_spec("matplotlib") is not None  # (asked first: importing it takes seconds)
    except ImportError:
        found = False
    if not found:
        raise CribboardError(_('plotting needs matplotlib: pip install "cribboard[plot]"'))
    conn = read_db(db_url)
    try:
        record, board = stats.game(conn, game_id)
    except KeyError:
        raise UsageError(_("no game %d in the database (see cribboard matches)") % game_id) from None
    record["names"] = stats.seats(conn).get(game_id, record.get("names"))  # as renamed since the sync
    status(_("drawing game %d's race chart...") % game_id)  # (matplotlib takes seconds to start)
    from cribboard.reports import plot as chart

    chart.race(
        record,
        output,
        _("Board %(board)s, match %(match)d game %(game)d")
        % {"board": board[:8], "match": record["match"], "game": record["game_no"]},
    )
    status(_("wrote %s") % output)
