# Pairing a board with the club's server: one transaction across three
# places. The key goes into the club's database first, the server must then
# take one request signed with it (club.proof), and only then does the board
# keep it; a proof that fails puts the database back as it was, so the board
# and the server never disagree about the key. The command (cli/club.py)
# asks the questions and prints the answer; this is what happens between.
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from cribboard import store
from cribboard.boardapp import conf_checked
from cribboard.club import proof
from cribboard.errors import CribboardError, UsageError
from cribboard.link.sync import board_of
from cribboard.text.i18n import _

if TYPE_CHECKING:
    from cribboard.link.client import BoardLink
    from cribboard.store import Database


@dataclass(frozen=True)
class Paired:
    board: str
    server: str
    rotated: bool  # a new key for a board paired already
    resent: bool  # the board sends its games again, those sent before too
    sent_before: int  # the last record the board had sent (to another server, or by USB); 0: none
    proto: int  # the board's link protocol (what it can be asked: 4 and up can send its games again)


def server_checked(url: str) -> str:
    """The club's server's URL as the board keeps it (http://A.B.C.D:PORT/), checked by the board's own rule;
    UsageError says what it must be."""
    url = url if url.endswith("/") else url + "/"
    try:
        conf_checked("club", {"server": url, "key": "0" * 32})  # (the key is made later)
    except ValueError:
        raise UsageError(
            _(
                "--server is the club's server as http://ADDRESS:PORT/, with its IPv4 address on the "
                "club's network, as `cribboard serve` says it; not %s"
            )
            % url[:100]
        ) from None
    return url


def pair(
    link: "BoardLink",
    open_store: Callable[[], "Database"],
    server_url: str,
    rotate: str | None,
    resend_wanted: Callable[[str, int, int], bool],
) -> Paired:
    """Pair the board on link with the server at server_url (server_checked's), its key kept in the store
    open_store() opens (the server's). rotate: the board's id, to give a board paired already a new key.
    resend_wanted(board, sent_before, proto): whether the board is to send the games it sent before too.
    Nothing is changed anywhere unless every step is taken."""
    hello = link.hello()
    board = board_of(hello)
    if rotate is not None and rotate != board:
        raise UsageError(
            _("the board on %(port)s is %(board)s, not %(rotate)s: nothing was changed")
            % {"port": link.port, "board": board, "rotate": rotate[:64]}
        )
    acked = hello.get("acked")
    sent = acked if rotate is None and isinstance(acked, int) else 0  # (a new key, not a new server: none)
    resend = resend_wanted(board, sent, link.proto)
    key = secrets.token_hex(16)  # what the board signs with is this text's bytes
    conn = open_store()
    try:
        # What the board sent before stays where it went unless resent: a heal never asks for it (store.games.behind)
        floor = (str(hello.get("log") or ""), 0 if resend else sent)
        _keep_proven(conn, link, server_url, board, key, rotate, floor)
    finally:
        conn.close()
    link.keep_config("club", {"server": server_url, "key": key})
    if resend:
        link.resend()  # after the new server is kept: the old one is asked nothing more
    return Paired(board, server_url, rotate is not None, resend, sent, link.proto)


def _keep_proven(
    conn: "Database",
    link: "BoardLink",
    server_url: str,
    board: str,
    key: str,
    rotate: str | None,
    floor: tuple[str, int],
) -> None:
    """The key in the store, then proven on the server; on any failure the store as it was."""
    if rotate is None:
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        before = store.club.pair(conn, board, key.encode(), now, floor)  # the club's first: unpaired is paired
    else:
        before = store.club.rotate(conn, board, key.encode())
        if before is None:
            raise UsageError(_("board %s is not paired, or its key was revoked: pair it without --rotate") % board)
    try:
        proof.prove(server_url, board, key, link.state())  # taken, as the board's will be
    except Exception as e:
        store.club.put_back(conn, board, before)  # the pairing it had, if any, still works
        if isinstance(e, (proof.NotThere, proof.NotAClub, proof.OtherDatabase)):
            raise CribboardError(_refused(e, server_url, conn.where)) from None
        raise


def _refused(e: Exception, server_url: str, db: str) -> str:
    """Why a proof failed, in the reader's words: nothing answers, something not a club's server does, or the
    server keeps its boards in another database."""
    if isinstance(e, proof.NotThere):
        return _(
            "the club's server at %(url)s does not answer (%(why)s): is `cribboard serve` "
            "running there, and is this machine on its network? The board is as it was"
        ) % {"url": server_url, "why": e}
    if isinstance(e, proof.NotAClub):
        return _(
            "%(url)s is not a club's server (it answered %(what)s): give the address "
            "`cribboard serve` printed. The board is as it was"
        ) % {"url": server_url, "what": e}
    return _(
        "the club's server at %(url)s keeps its boards in another database than %(db)s: "
        "give pair the --db that serve was started with. The board is as it was"
    ) % {"url": server_url, "db": db}
