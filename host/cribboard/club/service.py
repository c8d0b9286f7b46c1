# The club's server as `cribboard serve` runs it: the board protocol (Club)
# following the other servers on its database, its WSGI app (ClubApp) and
# waitress with its bounds (ClubServer), put together and bound; closed
# again whatever ends it. The command readies the database, sets the
# process's logging, and says where the server is.
from dataclasses import dataclass

from cribboard.club.app import ClubApp
from cribboard.club.protocol import MAX_BODY, Club
from cribboard.club.server import THREADS, ClubServer
from cribboard.errors import CribboardError
from cribboard.text.i18n import _


@dataclass
class Service:
    club: Club
    server: ClubServer

    def close(self) -> None:
        self.club.close()


def started(db_url: str, host: str, port: int, proxy: str | None) -> Service:
    """The server bound on host:port (CribboardError if it cannot be: a port taken is no other port, the
    boards paired with it would post elsewhere), its page showing the boards any server on the database
    heard. Serve it (ClubServer's serve_forever, or cribboard.cli.serving's loop), then close()."""
    club = Club(db_url, connections=THREADS)
    try:
        club.follow()
        app = ClubApp(club)
        try:
            server = ClubServer(app, host, port, MAX_BODY, proxy)
        except OSError as e:
            where = ("[%s]:%d" if ":" in host else "%s:%d") % (host, port)
            raise CribboardError(_("cannot serve on %s: %s") % (where, e.strerror or e)) from None
        app.served = server.server_address
        return Service(club, server)
    except BaseException:
        club.close()
        raise
