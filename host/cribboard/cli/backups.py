# A club's season kept safe: `backup` copies the whole database (while a
# server writes to it) into a file named by the time it was made, read back
# before it is called one; `restore` puts one back, only into an empty
# database unless told --over. `serve` makes its own (cribboard.club.backups).
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cribboard.cli.base import cli
from cribboard.cli.options import backup_dir_option, db_option, default_backup_dir
from cribboard.cli.output import status
from cribboard.text.i18n import _

if TYPE_CHECKING:
    from cribboard.store.backup import Backup


@cli.command()
@db_option
@backup_dir_option
@click.option("--json", "as_json", is_flag=True, help="Say what was written as one JSON line.")
def backup(db_url: str, folder: str | None, as_json: bool) -> None:
    """Copy the whole database into a backup file (the time it was made in
    its name), also while a club's server writes to it, and read it back:
    a file that does not open, or whose counts are not read back, is not
    kept. SQLite's own online backup; PostgreSQL's pg_dump."""
    from cribboard.store import backup as backups

    made = backups.make(db_url, Path(folder) if folder else default_backup_dir(db_url), _now(), create=not folder)
    _said(made, as_json, _("backed up to %s"))


@cli.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@db_option
@click.option(
    "--over",
    is_flag=True,
    help="Replace what the database holds (its games, players, nights...): without it, a restore goes only "
    "into an empty database (or a new file).",
)
@click.option("--json", "as_json", is_flag=True, help="Say what was restored as one JSON line.")
def restore(file: Path, db_url: str, over: bool, as_json: bool) -> None:
    """Put a backup (`cribboard backup`'s, or a club server's) back into the
    database: into an empty one (a new file, a new PostgreSQL database), or
    over one that holds games with --over. It is read back after. Stop the
    club's server first, and start it again after: the boards then send
    what the backup lacks of theirs by themselves."""
    from cribboard.store import backup as backups

    status(_("restoring %(file)s into %(db)s") % {"file": file, "db": backups.where(db_url)})
    _said(backups.restore(file, db_url, over), as_json, _("restored %s"))


def _said(made: "Backup", as_json: bool, words: str) -> None:
    """What was written or restored: a line (words around backup.said's), or JSON."""
    from cribboard.store import backup as backups

    if as_json:
        click.echo(
            json.dumps(
                {
                    "path": str(made.path),
                    "bytes": made.size,
                    "engine": made.engine,
                    "schema": made.version,
                    "counts": made.counts,
                }
            )
        )
    else:
        click.echo(words % backups.said(made))


def _now() -> datetime:
    return datetime.now(timezone.utc)
