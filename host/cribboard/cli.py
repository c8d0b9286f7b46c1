# The `cribboard` command: a table of subcommands in the style of mpremote and
# git. A user's mistake is one line on stderr and exit status 2, never a traceback.

import json
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
    click.echo("Simulated board running the firmware in %s" % flash_dir)
    click.echo("  serial port: %s%s" % (board_sim.port, " (also %s)" % link if link else ""))
    click.echo("  board page:  %s" % url)
    click.echo("Press Ctrl-C to stop.")
    if not headless:
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
