# The `cribboard` command: a table of subcommands in the style of mpremote and
# git. Data goes to stdout (--json wherever data is printed), progress and
# status to stderr. Every error is one line on stderr, never a traceback:
# exit status 1 for a failure at run time, 2 for a mistake in what was asked.

import json
import os
import sys
import time
import webbrowser
from pathlib import Path

import click
import platformdirs

from cribboard import __version__, calc, resources
from cribboard.errors import CribboardError, UsageError

USAGE_ERROR = UsageError.exit_code

ENVIRONMENT = """\b
Environment:
  CRIBBOARD_PORT         the board's serial port (as --port)
  CRIBBOARD_DB           the database (as --db)
  CRIBBOARD_HOME         a Cribboard checkout to take the firmware and
                         hardware data from, instead of the installed ones
  CRIBBOARD_SIM_RUNTIME  'cpython' runs the simulated board on CPython
                         even where MicroPython's unix port is installed
  NO_COLOR               plain text, no colours

\b
Exit status: 0 done, 1 failed (no board, a sync cut off, a database
error), 2 bad usage or input."""


def status(text):
    """Progress and status: stderr, so that stdout is only data."""
    click.echo(text, err=True)


def stderr_console():
    from rich.console import Console

    return Console(stderr=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog=ENVIRONMENT)
@click.version_option(__version__, prog_name="cribboard")
def cli():
    """Cribboard: an electronic cribbage peg board and the tools around it."""


@cli.command()
@click.option("--crib", is_flag=True, help="Score a crib: a flush needs all five cards.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand.")
@click.option("-v", "--verbose", is_flag=True, help="Say what scored.")
@click.argument("cards", nargs=-1)
def score(crib, as_json, verbose, cards):
    """Score four hand cards and the starter.

    CARDS are C1 C2 C3 C4 STARTER, e.g. 5H 5D 5S JC 5C. With no cards, reads
    one hand per line from stdin and prints one result per line; a bad line
    is reported on stderr and the rest still count."""

    def emit(show):
        if as_json:
            click.echo(json.dumps(calc.show_dict(show)))
        elif verbose:
            click.echo(calc.explain(show))
        else:
            click.echo(show.total)

    if cards:
        try:
            emit(calc.score_text(" ".join(cards), crib))
        except ValueError as e:
            raise UsageError(str(e)) from None
        return
    bad = 0
    for number, line in enumerate(sys.stdin, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            emit(calc.score_text(text, crib))
        except ValueError as e:
            bad += 1
            click.echo("cribboard: error: line %d: %s" % (number, e), err=True)
    if bad:
        sys.exit(USAGE_ERROR)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="A JSON list, one object per card or go.")
@click.argument("cards", nargs=-1, required=True)
def peg(as_json, cards):
    """Points for each card laid in the play.

    CARDS are laid in order, e.g. 5H TD 5S go KC. The count resets after 31 and after the word 'go'."""
    try:
        laid = calc.peg_words(cards)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if as_json:
        click.echo(json.dumps(laid))
        return
    for row in laid:
        if row["card"] == "go":
            click.echo("go        +1  (count back to 0)")
        else:
            what = "  (%s)" % row["what"] if row["what"] else ""
            click.echo("%-4s  %2d  +%d%s" % (row["card"], row["count"], row["points"], what))


@cli.command()
@click.option("--headless", is_flag=True, help="Do not open a browser.")
@click.option("--http", "http_addr", default="127.0.0.1:8121", show_default=True, metavar="HOST:PORT",
              help="Where the board's page is served (a free port if this one is taken; port 0 for any).")
@click.option("--link", type=click.Path(dir_okay=False), help="Also make this path a link to the serial port.")
@click.option("--flash", type=click.Path(file_okay=False), help="The folder that is the board's flash.")
@click.option("--board", default="pico", show_default=True, help="Pin map (hardware/boards).")
@click.option("--layout", default="2-track", show_default=True, help="LED layout (hardware/layouts).")
@click.option("--keep-firmware", is_flag=True,
              help="Run the firmware already on the flash (say, deployed by cribboard flash).")
@click.option("--runtime", "edition", type=click.Choice(["micropython", "circuitpython"]), default="micropython",
              show_default=True, help="The firmware's edition: main.py on MicroPython, or code.py on CircuitPython "
              "(its flash is then a CIRCUITPY drive: cribboard flash --drive works on it).")
@click.option("--json", "as_json", is_flag=True, help="Say where the board is as one JSON line.")
def sim(headless, http_addr, link, flash, board, layout, keep_firmware, edition, as_json):
    """Run a simulated board: the real firmware, no hardware needed.

    The board's page shows the LEDs and has its buttons; its serial port
    works with cribboard sync, watch and flash, and with mpremote."""
    from cribboard import simulator, web

    host, port = _http_address(http_addr)
    default = "sim-flash" if edition == "micropython" else "sim-circuitpy"
    flash_dir = Path(flash) if flash else Path(platformdirs.user_data_dir("cribboard")) / default
    try:
        simulator.seed_flash(flash_dir, board, layout, refresh=not keep_firmware, edition=edition)
    except OSError as e:
        raise CribboardError("cannot prepare the simulated flash %s: %s" % (flash_dir, e)) from None
    board_sim = simulator.Simulator(flash_dir, link=link, edition=edition)
    try:
        board_sim.start()
    except OSError as e:
        board_sim.stop()
        raise CribboardError("the simulated board did not start: %s" % e) from None
    try:
        server = web.make_server(board_sim, host, port)
    except OSError as e:
        board_sim.stop()
        raise CribboardError("cannot serve the board's page on %s: %s" % (http_addr, e.strerror or e)) from None
    url = "http://%s:%d/" % server.server_address[:2]
    if board_sim.runtime == "cpython":  # MicroPython's edition without the unix port
        status("MicroPython's unix port is not installed here (pip install \"cribboard[sim]\", Linux x86-64): "
               "running the firmware on CPython instead; it has no REPL, so flash and mpremote "
               "will not work against it.")
    if as_json:
        click.echo(json.dumps({"port": board_sim.port, "link": link, "url": url, "flash": str(flash_dir),
                               "runtime": board_sim.runtime}))
    else:
        click.echo("Simulated board running the firmware in %s on %s" % (flash_dir, board_sim.runtime))
        click.echo("  serial port: %s%s" % (board_sim.port, " (also %s)" % link if link else ""))
        click.echo("  board page:  %s" % url)
    sys.stdout.flush()
    status("Press Ctrl-C to stop.")
    _open_browser(url, headless)
    _stop_on_signals()
    try:
        while board_sim.alive():
            time.sleep(0.5)
        raise CribboardError("the simulated board stopped")
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        board_sim.stop()


def _stop_on_signals():
    """SIGTERM and SIGHUP (a kill, a closed terminal) end a serving command
    as Ctrl-C does: its `finally` stops what it started."""
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):  # Windows has no SIGHUP
            signal.signal(getattr(signal, name), stop)


def _open_browser(url, headless):
    # On Linux with no display, webbrowser would start a text browser in this terminal.
    has_screen = sys.platform != "linux" or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if not headless and has_screen:
        webbrowser.open(url)


def _http_address(http_addr):
    host, _, port = http_addr.rpartition(":")
    if not host or not port.isdigit() or int(port) > 65535:
        raise UsageError("--http wants HOST:PORT, e.g. 127.0.0.1:8121")
    return host, int(port)


@cli.command()
@click.option("--port", "port_names", multiple=True, help="A board's serial port; repeat for several "
              "(default: every board plugged in).")
@click.option("--http", "http_addr", default="127.0.0.1:8122", show_default=True, metavar="HOST:PORT",
              help="Where to serve the scoreboard page.")
@click.option("--headless", is_flag=True, help="Do not open a browser.")
@click.option("--json", "as_json", is_flag=True, help="Say where the page is as one JSON line.")
def live(port_names, http_addr, headless, as_json):
    """A live scoreboard of real boards: names, scores, the dealer, the
    match, and each board's LEDs, side by side on one page (a club's screen)."""
    from cribboard import ports, web
    from cribboard.live import LiveBoard

    host, port = _http_address(http_addr)
    names = list(port_names) or [p.device for p in ports.candidates()]
    if not names:
        ports.find(None)  # no board: the usual error, with the ports tried
    boards = []
    try:
        for name in names:
            status("reading the board on %s" % name)
            boards.append(LiveBoard(name))
        try:
            server = web.make_server(boards, host, port)
        except OSError as e:
            raise CribboardError("cannot serve the page on %s: %s" % (http_addr, e.strerror or e)) from None
        url = "http://%s:%d/" % server.server_address[:2]
        if as_json:
            click.echo(json.dumps({"url": url, "boards": [{"port": b.port, "board": b.board} for b in boards]}))
        else:
            click.echo("Live scoreboard of %d board%s: %s" % (len(boards), "" if len(boards) == 1 else "s", url))
        sys.stdout.flush()
        status("Press Ctrl-C to stop.")
        _open_browser(url, headless)
        _stop_on_signals()
        try:
            while True:
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            server.shutdown()
    finally:
        for b in boards:
            b.stop()


def default_db():
    return str(Path(platformdirs.user_data_dir("cribboard")) / "cribboard.sqlite3")


db_option = click.option("--db", "db_url", default=default_db, show_default="the user data folder",
                         envvar="CRIBBOARD_DB", help="The database: a SQLite file (a path or sqlite:///path) "
                         "or a PostgreSQL server (postgresql://user@host/dbname).")
port_option = click.option("--port", envvar="CRIBBOARD_PORT",
                           help="The board's serial port (default: the one board plugged in).")
json_option = click.option("--json", "as_json", is_flag=True, help="JSON instead of a table.")


def open_db(url):
    from cribboard import db

    try:
        return db.connect(url)
    except OSError as e:
        raise db.DbError("cannot open the database %s: %s" % (url, e.strerror or e)) from None


def open_link(port):
    from cribboard import ports
    from cribboard.linkclient import BoardLink

    return BoardLink(ports.find(port))


@cli.command("flash")
@port_option
@click.option("--board", default="pico", show_default=True, help="The pin map to install as board.json "
              "(hardware/boards: pico, esp32s3).")
@click.option("--layout", help="The LED layout (default: the pin map's).")
@click.option("--source", is_flag=True, help="Copy the .py files instead of compiling them with mpy-cross "
              "(for a MicroPython whose .mpy version this mpy-cross does not make).")
@click.option("--drive", is_flag=False, flag_value="", default=None, metavar="[PATH]",
              help="A CircuitPython board: write its CIRCUITPY drive (found by itself, or at PATH).")
@json_option
def flash_cmd(port, board, layout, source, drive, as_json):
    """Compile the firmware, copy what changed to the board, check it, restart it.

    Each file is written beside the old one, checked by its SHA-256 and only
    then put in its place, and the board is told when a deploy starts and
    when it is complete: cut it off anywhere and the board shows the
    deploy-error pattern until the next flash repairs it. With --drive, the
    same for a CircuitPython board through its CIRCUITPY drive."""
    from cribboard import flash, ports

    if drive is not None:
        from cribboard import drive as circuitpy

        where = circuitpy.find(drive or None)
        result = circuitpy.deploy(where, board, layout, step=lambda s: status("flash: " + s))
        if as_json:
            click.echo(json.dumps(result.as_dict()))
        else:
            status("flashed %s: %d files written, %d removed; the board restarts by itself "
                   "(unplug it and plug it in again if boot.py changed)"
                   % (where, len(result.written), len(result.removed)))
        return
    port = ports.find(port)
    if sys.stderr.isatty():
        from rich.progress import Progress

        with Progress(console=stderr_console(), transient=True) as bar:
            task = bar.add_task("flashing %s" % port, total=None)
            result = flash.flash(port, board, layout, source,
                                 step=lambda s: bar.update(task, description=s),
                                 progress=lambda n: bar.advance(task, n),
                                 plan=lambda total: bar.update(task, total=total))
    else:  # a log or a pipe: one line per step
        result = flash.flash(port, board, layout, source, step=lambda s: status("flash: " + s))
    if result.previous:
        status("the last deploy to this board had not finished (%s): repaired" % result.previous)
    if as_json:
        click.echo(json.dumps(result.as_dict()))
    else:
        status("flashed %s: %d files written, %d removed, all %d checked; the board is restarting"
               % (port, len(result.written), len(result.removed), result.files))


@cli.command("sync")
@port_option
@db_option
@json_option
def sync_cmd(port, db_url, as_json):
    """Copy finished games from a board into the database.

    Safe to stop or unplug at any moment: run it again and every game is
    stored exactly once."""
    from rich.progress import Progress

    from cribboard import sync

    conn = open_db(db_url)
    link = open_link(port)
    try:
        if sys.stderr.isatty():
            with Progress(console=stderr_console(), transient=True) as bar:
                task = bar.add_task("syncing", total=None)
                done = sync.sync(link, conn, lambda n, total: bar.update(task, completed=n, total=total))
        else:  # a log or a pipe: no bar drawn in it
            done = sync.sync(link, conn, lambda n, total: None)
    finally:
        link.close()
    new, rejected, board = done.new, done.rejected, done.board
    if rejected:
        status("board %s: %d record%s failed the checks and %s kept apart, not counted as games "
               "(cribboard rejected)" % (board, rejected, "" if rejected == 1 else "s",
                                         "was" if rejected == 1 else "were"))
    if done.crashes:
        status("board %s: its program crashed %d time%s and restarted; the tracebacks are stored "
               "(cribboard crashes)" % (board, done.crashes, "" if done.crashes == 1 else "s"))
    if as_json:
        click.echo(json.dumps({"board": board, "new_games": new, "rejected": rejected, "crashes": done.crashes}))
    else:
        click.echo("board %s: %d new game%s stored" % (board, new, "" if new == 1 else "s"))


class _SendByDefault(click.Group):
    """`cribboard players NAME NAME` sends the names to the board: a first
    word that is no subcommand means `players send`."""

    def parse_args(self, ctx, args):
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["send", *args]
        return super().parse_args(ctx, args)


@cli.group(cls=_SendByDefault)
def players():
    """The players: names for a board's tracks, and who played which game.

    `cribboard players --port PORT NAME NAME [NAME]` gives the board its
    players' names (a team's name for four players), one a track; the board
    keeps them for every game until changed."""


@players.command("send")
@port_option
@click.argument("names", nargs=-1, required=True)
def players_send(port, names):
    """Give the board its players' names, one a track."""
    from cribboard.players import checked

    names = [checked(n) for n in names]
    link = open_link(port)
    try:
        link.set_names(names)
    finally:
        link.close()
    status("the board's tracks are now: %s" % ", ".join(names))


@players.command("list")
@db_option
@json_option
def players_list(db_url, as_json):
    """Every player in the database, with games and boards played."""
    from cribboard import players as p

    emit(p.listing(open_db(db_url)), ["name", "games", "boards"], as_json)


@players.command("rename")
@click.argument("name")
@click.option("--player", "old", help="Rename this player everywhere (merging with NAME if it exists).")
@click.option("--track", type=click.IntRange(1, 3), help="The track to name (with --game or --board).")
@click.option("--game", type=int, help="One game, by its id (cribboard matches).")
@click.option("--board", help="Every game of this board (a prefix of its id will do) ...")
@click.option("--match", type=int, help="... or only this match of it.")
@db_option
def players_rename(name, old, track, game, board, match, db_url):
    """Fix names after a sync: who played a track of a game, a match or a
    board, or a player's name everywhere. What the board reported is kept."""
    from cribboard import players as p

    conn = open_db(db_url)
    if old is not None:
        if track or game or board or match:
            raise UsageError("--player renames everywhere: no --track, --game, --board or --match with it")
        status("%s is now %s in %d game%s" % (old, name, *_plural(p.rename(conn, old, name))))
        return
    if track is None:
        raise UsageError("say which track (--track N) of which games, or --player OLD_NAME")
    if match is not None and board is None:
        raise UsageError("--match needs --board: match numbers are a board's own")
    changed = p.reassign(conn, name, track, game=game, board=board, match=match)
    status("track %d is now %s in %d game%s" % (track, name, *_plural(changed)))


def _plural(n):
    return n, "" if n == 1 else "s"


def _league_options(fn):
    for option in reversed((
            db_option,
            click.option("--since", metavar="DATE", help="Only games from this date on (YYYY-MM-DD)."),
            click.option("--until", metavar="DATE", help="Only games up to this date, that day included."),
            click.option("--board", help="Only this board's games (a prefix of its id will do)."),
            json_option)):
        fn = option(fn)
    return fn


def _league_games(db_url, since, until, board):
    from cribboard import standings as st

    return st.played(open_db(db_url), st.date_bound(since, "--since"), st.date_bound(until, "--until", end=True),
                     board)


@cli.command()
@_league_options
def standings(db_url, since, until, board, as_json):
    """League standings: a row a player, ranked as a cribbage tournament ranks
    them (ACC: 2 game points a win, 3 a skunk win; the spread breaks ties)."""
    from cribboard import standings as st

    emit(st.table(_league_games(db_url, since, until, board)),
         ["rank", "player", "games", "wins", "losses", "skunks_given", "skunks_taken", "game_points", "spread"],
         as_json)


@cli.command("head-to-head")
@click.argument("player_a")
@click.argument("player_b")
@_league_options
def head_to_head(player_a, player_b, db_url, since, until, board, as_json):
    """Two players' games against each other, and how each fared."""
    from cribboard import standings as st

    result = st.head_to_head(_league_games(db_url, since, until, board), player_a, player_b)
    if as_json:
        click.echo(json.dumps(result, indent=1))
        return
    print_table(result["players"], ["player", "games", "wins", "losses", "skunks_given", "skunks_taken",
                                    "game_points", "spread"])
    games = [dict(g, score=" - ".join(str(s) for s in g["scores"])) for g in result["games"]]
    print_table(games, ["id", "when", "board", "winner", "score", "skunk"])


@cli.command("crashes")
@db_option
@click.option("--board", help="Only this board (a prefix of its id will do).")
@json_option
def crashes_cmd(db_url, board, as_json):
    """Crashes boards logged (sync fetches them): the traceback, the boot and
    how long after it. The board restarted each time with its game."""
    from cribboard import db

    emit(db.crashes(open_db(db_url), board), ["id", "board", "boot", "after", "received_at", "error"], as_json,
         lambda r: {"error": (r["text"].strip().splitlines() or [""])[-1], "after": "%.1f s" % (r["uptime_ms"] / 1000)})


@cli.command("rejected")
@db_option
@click.option("--board", help="Only this board (a prefix of its id will do).")
@json_option
def rejected_cmd(db_url, board, as_json):
    """Records a board sent that failed the checks: kept apart, raw, with the reason."""
    from cribboard import db

    emit(db.rejected(open_db(db_url), board), ["id", "board", "seq", "received_at", "reason", "raw"], as_json,
         lambda r: {"raw": r["raw"][:60]})


@cli.command()
@port_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line, per entry.")
def watch(port, as_json):
    """Show a board's entries live, as they are made (Ctrl-C to stop)."""
    link = open_link(port)
    try:
        hello = link.hello()
        link.watch(True)
        status("watching board %s (Ctrl-C to stop)" % hello["board"])
        for ev in link.events():
            if as_json:
                click.echo(json.dumps(ev))
                sys.stdout.flush()
                continue
            e = ev.get("event")
            what = ev["what"] if not e else "+%d track %d" % (e[1], e[0] + 1)
            line = "game %d  %-16s %s" % (ev["game_no"], what, " - ".join(str(s) for s in ev["scores"]))
            if ev.get("winner") is not None:
                line += "  (track %d wins)" % (ev["winner"] + 1)
            click.echo(line)
            sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        link.close()


def emit(rows, columns, as_json, shown=None):
    """A listing: JSON (the rows as they are), or a table of `columns`,
    shown(row) adding what only the table needs."""
    if as_json:
        click.echo(json.dumps(rows, indent=1))
    else:
        print_table([dict(r, **shown(r)) for r in rows] if shown else rows, columns)


def print_table(rows, columns):
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(*columns)
    for r in rows:
        # Text, not markup: what a board sent is shown as it is, its control codes stripped.
        table.add_row(*[Text("" if r.get(c) is None else str(r.get(c))) for c in columns])
    # Into a pipe or a file the table keeps its full width: nothing is cut or wrapped.
    Console(width=None if sys.stdout.isatty() else 10_000).print(table)


@cli.command()
@db_option
@click.option("--board", help="Only this board (a prefix of its id will do).")
@json_option
def matches(db_url, board, as_json):
    """List the finished games in the database, match by match."""
    from cribboard import stats

    emit(stats.games(open_db(db_url), board), ["id", "board", "kind", "match", "game", "who", "target", "scheme",
                                               "scores", "winner", "skunk", "game_points", "match_winner"],
         as_json, lambda r: {"who": " v ".join(r["names"])})


@cli.command("stats")
@db_option
@json_option
def stats_cmd(db_url, as_json):
    """Per-player and per-board statistics."""
    from cribboard import stats

    conn = open_db(db_url)
    players, boards = stats.player_stats(conn), stats.board_stats(conn)
    if as_json:
        click.echo(json.dumps({"players": players, "boards": boards}, indent=1))
        return
    for p in players:
        p["skunks given"] = "/".join(str(n) for n in p["skunks_given"])
        p["skunks taken"] = "/".join(str(n) for n in p["skunks_taken"])
        p["avg per entry"] = ", ".join("%s %s" % kv for kv in sorted(p["points"].items()))
        show = p["show"] or {}
        for column, key in (("pegging/deal", "pegging_per_deal"), ("hand/deal", "hand_per_deal"),
                            ("crib/deal dealt", "crib_per_deal_dealt"), ("best hand", "best_hand"),
                            ("show games", "games")):
            p[column] = show.get(key, "-")
    print_table(players, ["player", "games", "wins", "matches_won", "skunks given", "skunks taken",
                          "avg per entry", "show games", "pegging/deal", "hand/deal", "crib/deal dealt",
                          "best hand"])
    if any(p["show"] is None for p in players):
        click.echo("-: %s" % stats.NOT_COUNTED)
    print_table(boards, ["board", "games", "matches", "skunks", "firmware", "last_sync"])
    click.echo("skunks as single/double/triple")


@cli.command()
@db_option
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True)
@click.option("--what", type=click.Choice(["games", "barbu"]), default="games", show_default=True,
              help="Cribbage games, or barbu rubbers.")
@click.option("-o", "--output", type=click.File("w"), default="-", help="File to write (default: stdout).")
def export(db_url, fmt, what, output):
    """Export every game (JSON: with its full record and events)."""
    import csv

    from cribboard import barbu_sheet, stats

    conn = open_db(db_url)
    if what == "barbu":
        rows = barbu_sheet.listing(conn)
        if fmt == "json":
            for r in rows:
                rubber, _ = barbu_sheet.load(conn, r["id"])
                r["record"] = rubber.to_record()
        else:
            for r in rows:
                for k in range(4):
                    r["player%d" % (k + 1)] = r["names"][k]
                    r["total%d" % (k + 1)] = r["totals"][k]
                del r["names"], r["totals"]
    else:
        rows = stats.games(conn)
    if fmt == "json":
        if what == "games":
            for r in rows:
                r["record"] = stats.game(conn, r["id"])[0]
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
@click.argument("game_id", type=int)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="The PNG to write.")
def plot(db_url, game_id, output):
    """Draw the race chart of one game (its id from `cribboard matches`)."""
    from cribboard import stats

    try:
        from cribboard import plot as chart
    except ImportError:
        raise CribboardError('plotting needs matplotlib: pip install "cribboard[plot]"') from None
    conn = open_db(db_url)
    try:
        record, board = stats.game(conn, game_id)
    except KeyError:
        raise UsageError("no game %d in the database (see cribboard matches)" % game_id) from None
    record["names"] = stats.seats(conn).get(game_id, record.get("names"))  # as renamed since the sync
    chart.race(record, output, "Board %s, match %d game %d" % (board[:8], record["match"], record["game_no"]))
    status("wrote %s" % output)


@cli.group()
def barbu():
    """Keep a barbu score sheet: checked deal by deal, kept in the database."""


def _names(text):
    names = [n.strip() for n in text.split(",")]
    if len(names) != 4 or not all(names):
        raise UsageError("--names wants four names separated by commas")
    return names


@barbu.command("sheet")
@click.argument("file", required=False, type=click.File("r"))
@click.option("--names", default="Seat 1,Seat 2,Seat 3,Seat 4", show_default=True, help="The four players, seats 1-4.")
@click.option("--first-dealer", type=click.IntRange(1, 4), default=1, show_default=True)
@click.option("--resume", type=int, help="Go on with a rubber already in the database.")
@db_option
@click.option("--json", "as_json", is_flag=True, help="At the end, the rubber as JSON instead of the sheet.")
def barbu_sheet(file, names, first_dealer, resume, db_url, as_json):
    """Enter deals, one line each, from FILE or typed in.

    A line is CONTRACT RESULT [| DOUBLES] with seats 1-4, e.g.
    'queens 1 3 0 0 | 2x1 3x1!' (queens taken by seats 1-4; seat 2 doubled
    seat 1, seat 3 doubled seat 1 and was redoubled). Contracts: barbu SEAT,
    hearts N N N N ace=SEAT, queens, tricks, trumps N N N N, last2 SEAT SEAT,
    domino SEATS-IN-ORDER-OUT. Typing, 'undo' takes back the last deal and
    'quit' stops (the sheet is saved after every deal)."""
    from cribboard import barbu_sheet as sheet
    from cribcore import barbu as rules

    conn = open_db(db_url)
    if resume is not None:
        try:
            rubber, players = sheet.load(conn, resume)
        except KeyError:
            raise UsageError("no barbu rubber %d in the database (see cribboard barbu list)" % resume) from None
        rubber_id = resume
    else:
        rubber, players = rules.Rubber(first_dealer - 1), _names(names)
        rubber_id = None
    typing = file is None and sys.stdin.isatty()
    source = file or sys.stdin
    number = 0
    while not rubber.over():
        if typing:
            click.echo("deal %d, %s deals; left: %s" % (len(rubber.deals) + 1, players[rubber.dealer()],
                                                        " ".join(rubber.remaining())))
            line = click.prompt(">", default="quit", show_default=False, prompt_suffix=" ")
        else:
            line = source.readline()
            if not line:
                break
        number += 1
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if typing and text in ("quit", "q"):
            break
        if typing and text == "undo":
            if rubber.deals:
                again = rules.Rubber(rubber.first_dealer)
                for _, c, r, d, _ in rubber.deals[:-1]:
                    again.add(c, r, d)
                rubber = again
                rubber_id = sheet.save(conn, rubber, players, rubber_id)
            continue
        try:
            contract, result, doubles = sheet.parse_deal(text)
            rubber.add(contract, result, doubles)
        except ValueError as e:
            if typing:
                click.echo("not entered: %s" % e, err=True)
                continue
            raise UsageError("line %d: %s (nothing after it was entered)" % (number, e)) from None
        finally:
            if rubber.deals:
                rubber_id = sheet.save(conn, rubber, players, rubber_id)
    if as_json:
        click.echo(json.dumps(dict(rubber.to_record(), names=players, id=rubber_id), indent=1))
    else:
        click.echo("\n".join(sheet.sheet_rows(rubber, players)))
    if rubber_id is not None:
        status("saved as barbu rubber %d%s" % (rubber_id, "" if rubber.over() else
                                               " (unfinished: --resume %d to go on)" % rubber_id))


@barbu.command("list")
@db_option
@json_option
def barbu_list(db_url, as_json):
    """The barbu rubbers in the database."""
    from cribboard import barbu_sheet as sheet

    emit(sheet.listing(open_db(db_url)), ["id", "deals", "finished", "players", "updated"], as_json,
         lambda r: {"players": ", ".join("%s %d" % (n, t) for n, t in zip(r["names"], r["totals"]))})


@barbu.command("show")
@click.argument("rubber_id", type=int)
@db_option
@json_option
def barbu_show(rubber_id, db_url, as_json):
    """Print one rubber's score sheet."""
    from cribboard import barbu_sheet as sheet

    try:
        rubber, players = sheet.load(open_db(db_url), rubber_id)
    except KeyError:
        raise UsageError("no barbu rubber %d in the database (see cribboard barbu list)" % rubber_id) from None
    if as_json:
        click.echo(json.dumps(dict(rubber.to_record(), names=players), indent=1))
    else:
        click.echo("\n".join(sheet.sheet_rows(rubber, players)))


@cli.group()
def hardware():
    """Check pin maps and LED layouts; make the drawings, BOM and power budget."""


@hardware.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@json_option
def hardware_check(files, as_json):
    """Check your own layout or pin map files and explain each mistake.

    Exit status 1 if any file has a mistake."""
    from cribboard import hardware as hw

    results = []
    for f in files:
        try:
            results.append({"file": f, "ok": True, "message": hw.check(f)})
        except hw.HardwareError as e:
            results.append({"file": f, "ok": False, "message": str(e)})
    for r in results:
        if as_json:
            click.echo(json.dumps(r))
        elif r["ok"]:
            click.echo(r["message"])
        else:
            click.echo("cribboard: error: %s" % r["message"], err=True)
    if not all(r["ok"] for r in results):
        sys.exit(1)


@hardware.command("docs")
@click.option("--out", type=click.Path(file_okay=False),
              help="Folder to write to (default: hardware/ in the checkout CRIBBOARD_HOME names).")
@json_option
def hardware_docs(out, as_json):
    """Write the wiring diagrams, drilling templates, BOM and power budget
    (all made from the pin maps and layouts)."""
    from cribboard import hardware as hw

    src = resources.hardware_dir()
    try:
        files = hw.generated(src)
    except ValueError as e:
        raise hw.HardwareError(str(e)) from None
    if out:
        dest = Path(out)
    elif os.environ.get(resources.HOME_ENV):
        dest = src
    else:
        raise UsageError("say where to write them: --out FOLDER")
    written = []
    for name, text in sorted(files.items()):
        target = dest / name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        except OSError as e:
            raise CribboardError("cannot write %s: %s" % (target, e.strerror or e)) from None
        written.append(str(target))
        if not as_json:
            status("wrote %s" % target)
    if as_json:
        click.echo(json.dumps(written))


def main(argv=None):
    try:
        code = cli.main(args=argv, prog_name="cribboard", standalone_mode=False)
    except CribboardError as e:
        click.echo("cribboard: error: %s" % e, err=True)
        sys.exit(e.exit_code)
    except click.ClickException as e:
        click.echo("cribboard: error: %s" % e.format_message(), err=True)
        sys.exit(USAGE_ERROR if isinstance(e, click.UsageError) else e.exit_code)
    except click.Abort:
        click.echo("cribboard: aborted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
