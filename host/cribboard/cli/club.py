# A club's server for boards on its WiFi: `serve` takes their games and live
# scores (cribboard.club), `boards` lists the paired ones, `unpair` revokes one.
import gc
import json
import logging
import shlex
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cribboard.cli.base import cli
from cribboard.cli.options import db_option, default_backup_dir, json_option, open_db, port_option, read_db
from cribboard.cli.output import emit, status
from cribboard.cli.serving import http_address, serve_until_stopped, stop_on_signals
from cribboard.errors import UsageError
from cribboard.text.i18n import _

if TYPE_CHECKING:
    from cribboard.store import Database
from cribboard.text.error_words import said
from cribboard.text.quote import quote

SERVE_PORT = 8120  # the club's; the simulated board's page is on 8121, the live scoreboard's on 8122


@cli.command()
@db_option
@click.option(
    "--http",
    "http_addr",
    default="0.0.0.0:%d" % SERVE_PORT,
    show_default=True,
    metavar="HOST:PORT",
    help="Where to listen: the boards post to it, and it serves the live page. A port that is taken "
    "is an error: the boards paired with it would post to another program.",
)
@click.option(
    "--trusted-proxy",
    "trusted",
    metavar="ADDRESS",
    help="The load balancer or proxy before this server (its IP address): the requests it forwards are "
    "counted against the address it says it forwarded for (the last of X-Forwarded-For), so one client "
    "behind it cannot use up the others' allowance. No other client's X-Forwarded-For is believed.",
)
@click.option(
    "--public-url",
    "public_urls",
    multiple=True,
    metavar="URL",
    help="The address a reverse proxy serves this server's pages at (https://club.example.org/): its pages "
    "there are this server's own, so the players' phones may send their results from them. Repeatable.",
)
@click.option(
    "--backup-dir",
    "backup_dir",
    type=click.Path(file_okay=False),
    help="The folder of the server's own backups (it must be there). Default: `backups` beside a SQLite "
    "database, made if need be; for PostgreSQL, in the user data folder.",
)
@click.option(
    "--backup-every",
    "backup_every",
    type=click.FloatRange(min=0.01, max=24 * 366),
    default=24.0,
    show_default=True,
    metavar="HOURS",
    help="A backup when the newest is this old; one is also made after every club night and tournament that ends.",
)
@click.option(
    "--backup-keep",
    "backup_keep",
    type=click.IntRange(min=1, max=100_000),
    default=30,
    show_default=True,
    metavar="N",
    help="The newest N backups in the folder are kept; older ones of this tool's are removed.",
)
@click.option("--no-backups", "no_backups", is_flag=True, help="Make no backups (another tool makes them).")
@click.option("--json", "as_json", is_flag=True, help="Say where it listens as one JSON line.")
def serve(
    db_url: str,
    http_addr: str,
    trusted: str | None,
    public_urls: tuple[str, ...],
    backup_dir: str | None,
    backup_every: float,
    backup_keep: int,
    no_backups: bool,
    as_json: bool,
) -> None:
    """The club's server: paired boards send it their finished games and
    their live scores over the network; it keeps the games in the database
    and shows every board that reports on one live page (Ctrl-C stops it).
    It backs the database up itself (see --backup-dir): daily, and after
    every club night and tournament that ends."""
    from cribboard import store
    from cribboard.club.backups import Plan
    from cribboard.club.service import started

    host, port = http_address(http_addr)
    proxy = None if trusted is None else _address(trusted)
    public = tuple(_origin(url) for url in public_urls)
    plan = None
    if not no_backups:
        folder = Path(backup_dir) if backup_dir else default_backup_dir(db_url)
        if backup_dir and not folder.is_dir():  # (said now, not in the log of the first backup's failure)
            raise UsageError(_("--backup-dir: there is no folder %s") % folder)
        plan = Plan(folder, backup_every * 3600, backup_keep, create=not backup_dir)
    stop_on_signals()  # the database is closed however this ends
    try:  # made, migrated and found writable before the first board reports, not when its first game arrives
        made = open_db(db_url, create=True)
    except store.DbError as e:
        raise store.DbError(_("%s (the club's server stores the boards' games in it)") % e) from None
    try:
        warn_if_readable(made)
    finally:
        made.close()
    # The database as `pair` must be given it, from any folder (a password is never printed: libpq's own
    # PGPASSWORD or ~/.pgpass gives it).
    hint_db = store.engine.safe_url(db_url) if store.is_server(db_url) else str(store.path_of(db_url).resolve())
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    for name in ("club", "uvicorn.error"):
        logging.getLogger(name).addHandler(handler)  # one line a refusal, on stderr
        logging.getLogger(name).setLevel(logging.INFO if name == "club" else logging.WARNING)
        logging.getLogger(name).propagate = False
    logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)  # a database away is said once a request, as 503
    service = started(db_url, host, port, proxy, backups=plan, public=public)
    server = service.server
    # What the process loaded to get here (modules, the app, the pools) lives as long as it: kept out of
    # the cyclic collector's full passes, which stop every thread (about 31,000 objects each pass skips).
    gc.freeze()
    try:

        def say() -> None:
            url = "http://%s:%d/" % server.server_address[:2]
            # What a board is paired with: an address on the club's network (a board looks up no names).
            pair_url = "http://%s:%d/" % (lan_address() if host in ("0.0.0.0", "") else host, server.server_address[1])
            if plan is not None:
                status(
                    _(
                        "Backups: %(folder)s (when the newest is %(hours)g hours old, and after every night and "
                        "tournament; the newest %(keep)d kept)"
                    )
                    % {"folder": plan.folder, "hours": backup_every, "keep": backup_keep}
                )
            if as_json:
                backups = None if plan is None else str(plan.folder)
                click.echo(json.dumps({"url": url, "pair": pair_url, "db": hint_db, "backups": backups}))
            else:
                click.echo(_("The club's server: %s") % url)
                click.echo(
                    _("Pair the boards with it: cribboard pair --server %s") % pair_url
                    + " --db "
                    + shlex.quote(hint_db)
                )
            sys.stdout.flush()

        serve_until_stopped(server, say)
    finally:
        service.close()


def _origin(url: str) -> str:
    """A --public-url as the origin a browser names for it."""
    from cribboard.web.guard import public_origin

    try:
        return public_origin(url)
    except ValueError as e:
        raise UsageError(
            _("--public-url is an address such as https://club.example.org/ (%(why)s), not %(url)s")
            % {"why": e, "url": ascii(url[:80])}
        ) from None


def _address(given: str) -> str:
    """An IP address as serve --trusted-proxy takes it (as the connection's address is written)."""
    import ipaddress

    try:
        return str(ipaddress.ip_address(given.strip()))
    except ValueError:
        raise UsageError(_("--trusted-proxy is an IP address, not %s") % ascii(given[:60])) from None


@cli.command()
@db_option
@json_option
def boards(db_url: str, as_json: bool) -> None:
    """The boards paired with this club's server: when, whether revoked,
    their last request, how many games are stored of each, how many
    records were kept apart (see cribboard rejected), how many logs
    each sent records of (a wiped or replaced board starts a new one),
    and what each sent again to a club that had lost it (a restore)."""
    from cribboard import store

    emit(
        store.club.boards(read_db(db_url)),
        [
            "board",
            "paired_at",
            "revoked_at",
            "last_request_at",
            "games",
            "rejected",
            "logs",
            "sent_again",
            "behind_since",
        ],
        as_json,
    )


@cli.command()
@click.argument("board")
@db_option
def unpair(board: str, db_url: str) -> None:
    """Revoke a board's key: the server takes nothing more from it (pair it
    again to give it a new key)."""
    from cribboard import store

    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    revoked = store.club.unpair(open_db(db_url), board, now)
    if revoked is None:
        raise UsageError(_("no paired board %s (see cribboard boards)") % board)
    if not revoked[1]:  # asked twice: done already, and said so
        status(
            _("board %(board)s was unpaired already, at %(when)s: the server takes nothing from it")
            % {"board": board, "when": revoked[0]}
        )
    else:
        status(_("board %s is unpaired: the server takes nothing more from it") % board)


@cli.command()
@port_option
@click.option("--ssid", required=True, help="The club's WiFi network.")
def wifi(port: str | None, ssid: str) -> None:
    """Give the board the club's WiFi: the password is asked for and not
    shown (or read as one line from stdin), and kept on the board only
    (never printed, logged or synced back)."""
    from cribboard.cli.options import open_link

    if sys.stdin.isatty():
        password = click.prompt(
            _("WiFi password"), hide_input=True, confirmation_prompt=True, default="", show_default=False, err=True
        )
    else:  # a script's: one line from stdin (never from the command line, where `ps` would show it)
        password = sys.stdin.readline().rstrip("\r\n")
    from cribboard.boardapp import conf_checked  # the board's own rule, checked here first

    for text, problem in (
        (ssid, _("the network's name %s is not UTF-8 text") % quote(ssid)),
        (password, _("the password is not UTF-8 text")),
    ):  # (bytes the terminal could not decode)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise UsageError(problem) from None
    wanted = {"ssid": ssid, "password": password}
    try:
        conf_checked("wifi", wanted)
    except ValueError as e:
        raise UsageError(said(e)) from None
    link = open_link(port)
    try:
        link.keep_config("wifi", wanted)
    finally:
        link.close()
    if password:
        status(_("the board keeps the WiFi %s") % ssid)
    else:  # said in so many words: an empty answer to the prompt may have been a slip
        status(_("the board keeps the WiFi %s, as an open network (no password)") % ssid)


@cli.command()
@port_option
@click.option(
    "--server",
    "server_url",
    required=True,
    metavar="URL",
    help="The club's server, as `cribboard serve` says it: http://HOST:PORT/.",
)
@click.option(
    "--rotate",
    "rotate",
    metavar="BOARD",
    help="Give BOARD, paired already, a new key and keep its request counter (a key that may have "
    "been seen; the board on --port must be BOARD).",
)
@click.option(
    "--resend-all/--no-resend",
    "resend",
    default=None,
    help="Whether the games the board already sent (to another server, or by USB) go to this server "
    "too; asked if not given, when a terminal can answer, else not sent. Each is stored once.",
)
@db_option
@json_option
def pair(
    port: str | None, server_url: str, rotate: str | None, resend: bool | None, db_url: str, as_json: bool
) -> None:
    """Pair the board with the club's server: a new random key (128 bits)
    goes into the club's database and onto the board, and nowhere else; the
    server takes the board's games and live scores from then on. The pairing
    proves itself first: one request signed with the key, as the board's
    will be, must be taken by the server, else the board is left as it was.
    A board moved from another server sends its unsent games here; its games
    sent before go too with --resend-all."""
    from cribboard.cli.options import open_link
    from cribboard.pairing import pair as pair_board
    from cribboard.pairing import server_checked

    server_url = server_checked(server_url)

    def open_store() -> "Database":
        conn = open_db(db_url)  # the server's, so there already: a path with none is a typo, said as such
        warn_if_readable(conn)
        return conn

    def resend_wanted(board: str, sent: int, proto: int) -> bool:
        return _resend_wanted(resend, sent, board, proto)

    link = open_link(port)
    try:
        paired = pair_board(link, open_store, server_url, rotate, resend_wanted)
    finally:
        link.close()
    hint = _resend_hint(paired.board, paired.sent_before, paired.proto, paired.resent)
    if hint:
        status(hint)
    said = {"board": paired.board, "server": paired.server}
    if as_json:
        click.echo(json.dumps(dict(said, rotated=paired.rotated, resent=paired.resent)))
    elif paired.rotated:
        click.echo(_("board %(board)s has a new key for %(server)s") % said)
    else:
        click.echo(_("board %(board)s is paired with %(server)s") % said)


def _resend_hint(board: str, sent: int, proto: int, resend: bool) -> str | None:
    """What to say of the games the board sent before and does not send again: how to, if it can."""
    if not sent or resend:
        return None
    if proto >= 4:
        return _(
            "the games board %(board)s sent before (up to number %(seq)d) stay where they went; "
            "`cribboard pair --resend-all` sends them to this server too"
        ) % {"board": board, "seq": sent}
    return _(
        "the games board %(board)s sent before (up to number %(seq)d) stay where they went; its firmware "
        "cannot send them again: update it with `cribboard flash`, then `cribboard pair --resend-all`"
    ) % {"board": board, "seq": sent}


def _resend_wanted(resend: bool | None, sent: int, board: str, proto: int) -> bool:
    """Whether the board is to send its log again: --resend-all/--no-resend, else the terminal's answer when
    it sent games before, else no."""
    if resend and proto < 4:
        raise UsageError(
            _(
                "board %(board)s's firmware cannot send its games again (protocol %(proto)d): update it "
                "with `cribboard flash`, then pair it; nothing was changed"
            )
            % {"board": board, "proto": proto}
        )
    if resend is not None:
        return resend
    if not sent or proto < 4 or not sys.stdin.isatty():
        return False
    return click.confirm(
        _(
            "board %(board)s sent its games up to number %(seq)d before (to another server, or by "
            "USB): send them to this server too? Each is stored once"
        )
        % {"board": board, "seq": sent},
        default=True,
        err=True,
    )


def warn_if_readable(db: "Database") -> None:
    """A SQLite file that other users of this machine can read holds the boards' keys: say so."""
    import os
    import stat

    if db.engine != "sqlite":
        return  # PostgreSQL: the keys' table is the server's role's alone (docs/cli.md gives the grants)
    try:
        mode = os.stat(db.where).st_mode
    except OSError:
        return
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        status(
            _(
                "the database %(db)s can be read by other users of this machine, and it holds the boards' keys "
                "(whoever reads a key can sign as that board): chmod 600 %(db)s"
            )
            % {"db": db.where}
        )


def lan_address() -> str:
    """This machine's address on its network (where boards reach a server that listens on all of them),
    from the route a datagram would take; none is sent. 127.0.0.1 on a machine with no network."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"
