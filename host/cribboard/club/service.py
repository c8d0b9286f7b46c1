# The club's server as `cribboard serve` runs it: the board protocol (Club)
# given the boards' seating and following the other servers on its
# database, its answers (ClubApp), the ASGI front with its two pools of
# threads (Front) and uvicorn with its bounds (ClubServer), put together
# and bound; closed again whatever ends it. The command readies the database, sets the process's logging, and
# says where the server is.
from dataclasses import dataclass

from cribboard.club.app import ClubApp
from cribboard.club.backups import Backups, Plan
from cribboard.club.front import Front
from cribboard.club.protocol import Club
from cribboard.club.server import ClubServer
from cribboard.errors import CribboardError
from cribboard.seating import Seating
from cribboard.text.i18n import _

BOARD_THREADS = 8  # boards' reports worked on at once, each with a database connection of its own
PAGE_THREADS = 2  # the pages' reads at once (their live JSON is made once per CACHE_S, whoever asks)


@dataclass
class Service:
    club: Club
    front: Front
    server: ClubServer
    backups: Backups | None = None

    def close(self) -> None:
        if self.backups is not None:
            self.backups.close()
        self.front.close()
        self.club.close()


def started(
    db_url: str,
    host: str,
    port: int,
    proxy: str | None,
    limit: int | None = None,
    backups: Plan | None = None,
    public: tuple[str, ...] = (),
) -> Service:
    """The server bound on host:port (CribboardError if it cannot be: a port taken is no other port, the
    boards paired with it would post elsewhere), its page showing the boards any server on the database
    heard. Serve it (cribboard.cli.serving's loop), then shutdown() it and close() this. limit: the
    connections it holds open at once (by default as many as the process may open files)."""
    club = Club(db_url, Seating(), connections=BOARD_THREADS + PAGE_THREADS + 1)  # (+1: following the other servers)
    try:
        club.follow()
        kept = None if backups is None else Backups(db_url, club.pool, backups)  # (its folder's newest read now)
        app = ClubApp(club, public)
        front = Front(app, proxy, BOARD_THREADS, PAGE_THREADS)
        try:
            try:
                server = ClubServer(front, host, port, front.stop, limit)
            except OSError as e:
                where = ("[%s]:%d" if ":" in host else "%s:%d") % (host, port)
                raise CribboardError(_("cannot serve on %s: %s") % (where, e.strerror or e)) from None
        except BaseException:
            front.close()
            raise
        app.served = server.server_address
        if kept is not None:
            kept.start()
        return Service(club, front, server, kept)
    except BaseException:
        club.close()
        raise
