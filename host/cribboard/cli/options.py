# The options every command that reads a board or a database shares
# (--db, --port, --json, a row's id), and opening what they name: a
# database made only where the user chose one, a board's link found by its
# port.
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import platformdirs

from cribboard.cli.output import status
from cribboard.errors import UsageError
from cribboard.night.draw import SEED_MAX
from cribboard.records import MAX_INT
from cribboard.text.i18n import _

if TYPE_CHECKING:  # (imported when used: a command loads only what it needs)
    from cribboard.link.client import BoardLink
    from cribboard.store import Database


def default_db() -> str:
    return str(Path(platformdirs.user_data_dir("cribboard")) / "cribboard.sqlite3")


db_option = click.option(
    "--db",
    "db_url",
    default=default_db,
    show_default="the user data folder",
    envvar="CRIBBOARD_DB",
    help="The database: a SQLite file (a path, sqlite:///relative.db or "
    "sqlite:////absolute/path.db) "
    "or a PostgreSQL server (postgresql://user@host/dbname).",
)


def default_backup_dir(db_url: str) -> Path:
    """Where backups go unless told: a folder `backups` beside a SQLite file, else in the user data folder."""
    from cribboard import store

    if store.is_server(db_url):
        return Path(platformdirs.user_data_dir("cribboard")) / "backups"
    return store.path_of(db_url).absolute().parent / "backups"


backup_dir_option = click.option(
    "--to",
    "folder",
    type=click.Path(file_okay=False),
    help="The folder the backup goes in (it must be there). Default: `backups` beside a SQLite database, "
    "made if need be; for PostgreSQL, in the user data folder.",
)
port_option = click.option(
    "--port", envvar="CRIBBOARD_PORT", help="The board's serial port (default: the one board plugged in)."
)
json_option = click.option("--json", "as_json", is_flag=True, help="JSON instead of a table.")
output_option = click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    default="-",
    help="File to write (default: stdout).",
)


# A row's id (a game, a match, a sheet): what the databases can hold, so a number past it is a usage error,
# not a traceback from the database's driver.
class WholeNumber(click.IntRange):
    """click's IntRange, of the digits 0-9 only: Python's int() reads other scripts' digits too (an
    Arabic-Indic one is 1), which no one types to mean a game's number."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if not (text.isascii() and text.lstrip("+-").isdigit() and len(text) - len(text.lstrip("+-")) <= 1):
                self.fail(_("%r is not a whole number (the digits 0 to 9)") % (value,), param, ctx)
            value = int(text)
        return super().convert(value, param, ctx)


ROW_ID = WholeNumber(1, MAX_INT)
SCORE = WholeNumber(-MAX_INT, MAX_INT)  # a score as typed: its range is the rules' to check, and say


def db_exists(url: str) -> bool:
    """Whether there is a database at url to read (a server's is taken to be there: connecting says)."""
    from cribboard import store

    return store.is_server(url) or store.path_of(url).exists()


def open_db(url: str, create: bool = False) -> "Database":
    """The database at url, to write to. A SQLite file is made only by a command that begins what is kept
    there (create: sync, pair, the sheets, a night), which says so; elsewhere a path with no database (a
    typo in --db, or nothing synced yet) is an error, not a new empty database. A command that only reads
    opens it with read_db. A damaged file is refused before anything is written to it."""
    from cribboard import store

    fresh = None
    if not store.is_server(url):
        path = store.path_of(url)
        if not path.exists():
            if not create:
                raise store.DbError(
                    _("there is no database at %(path)s (check --db; `cribboard sync --db %(path)s` makes one)")
                    % {"path": path}
                )  # the error edge caps a line
            fresh = path
    try:
        conn = _closed_at_the_end(store.connect(url, create=create, checked=True))
    except OSError as e:
        raise store.DbError(_("cannot open the database %s: %s") % (url, e.strerror or e)) from None
    if fresh is not None:
        status(_("created the database %s") % fresh)
    return conn


def read_db(url: str) -> "Database":
    """The database at url for a command that only reads: opened read-only, nothing made or written (only
    an older schema is brought up to date). Before the first sync there is none at the default location:
    the command finds nothing, and says why; a path with none elsewhere is an error, as for open_db."""
    from cribboard import store
    from cribboard.store import connection

    if not store.is_server(url) and not store.path_of(url).exists():
        if url != default_db():
            return open_db(url)  # (the error: no database there)
        status(_("no database yet at %s: nothing synced (`cribboard sync` makes it)") % store.path_of(url))
        return connection.empty()
    try:
        return _closed_at_the_end(connection.read(url))
    except OSError as e:
        raise store.DbError(_("cannot open the database %s: %s") % (url, e.strerror or e)) from None


def _closed_at_the_end(db: "Database") -> "Database":
    """db, closed when the command ends: SQLite tidies a WAL file's -wal and -shm away only at a close."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.call_on_close(db.close)
    return db


def open_link(port: str | None) -> "BoardLink":
    from cribboard.link import ports
    from cribboard.link.client import BoardLink

    return BoardLink(ports.find(port, tell=status), tell=status)  # what it waits for, as it waits


def folder_given(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    """A folder to write into, named: an empty name is no folder (it would be the current one, unasked)."""
    if not value.strip():
        raise click.BadParameter(_("an empty name is no folder: name one (`.` for this one)"))
    return value


def names_as_typed(_ctx: click.Context, _param: click.Parameter, value: Any) -> Any:
    """A player's name (or names) as typed, refused in one line if it can be no one's (a newline in it, say)."""
    from cribboard.cli.player_names import checked

    for name in (value,) if isinstance(value, str) else value or ():
        try:
            checked(name)
        except UsageError as e:
            raise click.BadParameter(str(e)) from None  # (said as click says a bad value: which one, then why)
    return value


def table_specs(_ctx: click.Context, _param: click.Parameter, value: Any) -> list[tuple[str, str | None]]:
    """--table NAME or NAME=BOARD, as (name, board's prefix or None)."""
    out: list[tuple[str, str | None]] = []
    for spec in value or ():
        name, is_board, board = str(spec).partition("=")
        name = name.strip()
        if not name or not name.isprintable() or len(name) > 20:
            raise click.BadParameter(_("a table's name is 1 to 20 characters of one line, not %r") % name)
        out.append((name, board.strip() if is_board else None))
    return out


def tables_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--table, as many as there are: a night's or a tournament's tables and the boards at them."""
    return click.option(
        "--table",
        "tables",
        multiple=True,
        callback=table_specs,
        metavar="NAME[=BOARD]",
        help="A table, and the board at it (a prefix of its id) if it has one; without any: tables 1, 2, ... "
        "for the players, the club's paired boards at the first ones.",
    )(fn)


def seed_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--seed", type=click.IntRange(0, SEED_MAX), help="The draw's seed (to draw the same rounds again)."
    )(fn)
