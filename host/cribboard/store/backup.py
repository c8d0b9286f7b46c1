# A copy of the whole database, made while a server writes to it, and
# read back before it is called a backup: SQLite's online backup (a
# snapshot: in WAL mode the writers go on meanwhile), or PostgreSQL's own
# pg_dump (its custom format, one snapshot too). A copy is written under a
# name of its own (.part) and renamed only once it opens and its schema and
# counts are read back, so a copy cut off (a power cut, a full disk) is
# never taken for a backup. A backup holds the boards' keys: its file is
# this user's alone. Restored only into an empty database unless the caller
# says otherwise (over), and in one transaction: a restore that fails
# leaves the database as it was.
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from cribboard.errors import UsageError
from cribboard.store.engine import Database, DbError, is_server, open_postgresql, open_sqlite, path_of, safe_url
from cribboard.store.migrations import SCHEMA_VERSION
from cribboard.text.i18n import _, ngettext

# What a backup's read-back counts (those of its tables that its schema has): what a director recognises
# their season by.
COUNTED = ("games", "players", "nights", "tournaments", "club_boards")
SQLITE_SUFFIX = ".sqlite3"
POSTGRESQL_SUFFIX = ".pgdump"
_NAME = re.compile(
    r"cribboard-(\d{8}-\d{6})Z(?:-(\d+))?(?:%s|%s)" % (re.escape(SQLITE_SUFFIX), re.escape(POSTGRESQL_SUFFIX))
)
_SQLITE_MAGIC = b"SQLite format 3\x00"
_PG_MAGIC = b"PGDMP"
_COPY = re.compile(r'COPY (?:"?\w+"?\.)?"?(\w+)"? ')  # a table's data begins (pg_restore's SQL)
_TOOL_S = 3600  # pg_dump / pg_restore of a season: seconds; a hung one is stopped, not waited on for ever


class BackupError(DbError):
    """A backup or a restore that failed (a full disk, pg_dump's complaint): nothing is left half-made."""


class BackupRefused(UsageError):
    """A backup or a restore asked of what cannot take it (no such folder, a file that is no backup, a
    database that holds games): nothing was done."""


@dataclass(frozen=True)
class Backup:
    """A backup read back: its file, its size in bytes, its engine ("sqlite" or "postgresql"), its schema
    version and the rows of COUNTED tables it holds."""

    path: Path
    size: int
    engine: str
    version: int
    counts: dict[str, int]


def name_for(engine: str, when: datetime) -> str:
    """A backup's file name: the time it was made (UTC), sorting as it was made."""
    suffix = SQLITE_SUFFIX if engine == "sqlite" else POSTGRESQL_SUFFIX
    return "cribboard-%s%s" % (when.astimezone(timezone.utc).strftime("%Y%m%d-%H%M%SZ"), suffix)


def backups_in(folder: Path) -> list[Path]:
    """The backups this tool made in folder (by their names), the oldest first."""
    try:
        named = [(_NAME.fullmatch(p.name), p) for p in folder.iterdir()]
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = [(m[1], int(m[2] or 1), p) for m, p in named if m is not None and p.is_file()]
    return [p for _stamp, _n, p in sorted(found)]


def make(url: str, folder: Path, when: datetime, create: bool = False) -> Backup:
    """A backup of the database at url in folder, checked; BackupError (nothing left behind) if it cannot be
    made or does not read back. create: the folder is made if it is not there (a default one; a folder a
    user named and that is not there is a typo, said as such)."""
    engine = "postgresql" if is_server(url) else "sqlite"
    _ready(folder, create)
    name = name_for(engine, when)
    final = folder / name
    n = 1
    while final.exists():  # (two in one second: a director's beside the server's)
        n += 1
        final = folder / name.replace(".", "-%d." % n, 1)
    part = final.with_name(final.name + ".part")
    try:
        _private(part)
        if engine == "sqlite":
            _copy_sqlite(url, part)
        else:
            _dump(url, part)
        _fsynced(part)
        made = read_back(part)
        os.replace(part, final)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    _synced(folder)
    return Backup(final, made.size, made.engine, made.version, made.counts)


def prune(folder: Path, keep: int) -> list[Path]:
    """The oldest of this tool's backups in folder removed, the newest `keep` kept; those removed."""
    found = backups_in(folder)
    gone = found[: max(0, len(found) - keep)]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def read_back(path: Path) -> Backup:
    """What a backup file holds, read from it: BackupError if it is not one of this tool's (not a database,
    not cribboard's, damaged)."""
    try:
        with path.open("rb") as f:
            head = f.read(16)
        size = path.stat().st_size
    except OSError as e:
        raise BackupError(_("cannot read %s: %s") % (path, e.strerror or e)) from None
    if head == _SQLITE_MAGIC:
        version, counts = _read_sqlite(path)
        return Backup(path, size, "sqlite", version, counts)
    if head.startswith(_PG_MAGIC):
        version, counts = _read_dump(path)
        return Backup(path, size, "postgresql", version, counts)
    raise BackupRefused(_("%s is not a cribboard backup (neither a SQLite database nor a pg_dump file)") % path)


def restore(path: Path, url: str, over: bool = False) -> Backup:
    """The backup at path put in the database at url, which must hold nothing (no games, players, nights,
    tournaments or boards) unless over; then read back. BackupRefused if it may not (nothing changed);
    BackupError if the restore failed (the engine's one transaction: nothing changed either)."""
    backup = read_back(path)
    engine = "postgresql" if is_server(url) else "sqlite"
    if backup.engine != engine:
        raise BackupRefused(
            _("%(file)s is a %(kind)s backup: it restores into a %(kind)s database, not %(db)s")
            % {"file": path, "kind": _engine_name(backup.engine), "db": where(url)}
        )
    if backup.version > SCHEMA_VERSION:
        raise BackupRefused(
            _(
                "%(file)s is from a newer cribboard (schema %(version)d; this one knows %(known)d): "
                "pip install --upgrade cribboard"
            )
            % {"file": path, "version": backup.version, "known": SCHEMA_VERSION}
        )
    held = holds(url)
    if held and not over:
        raise BackupRefused(
            _(
                "the database %(db)s holds %(what)s: a restore replaces all of it; say --over to, or name an empty "
                "database; nothing was changed"
            )
            % {"db": where(url), "what": said_counts(held)}
        )
    if engine == "sqlite":
        _restore_sqlite(path, url)
    else:
        _pg_restore(path, url, clean=held is not None)
    now = holds(url) or {}
    if any(now.get(t, 0) != n for t, n in backup.counts.items()):
        raise BackupError(
            _("the restore into %(db)s does not read back as the backup: it holds %(now)s, the backup %(then)s")
            % {"db": where(url), "now": said_counts(now), "then": said_counts(backup.counts)}
        )
    return backup


def holds(url: str) -> dict[str, int] | None:
    """The rows of COUNTED tables the database at url holds (only those not empty); None for one with no
    cribboard schema at all (a new file, a new PostgreSQL database)."""
    if not is_server(url) and not path_of(url).exists():
        return None
    db = open_postgresql(url) if is_server(url) else open_sqlite(url, read_only=True)
    try:
        tables = _tables(db)
        if "schema_version" not in tables and "games" not in tables:
            return None
        return {t: n for t, n in _counts(db, tables).items() if n}
    finally:
        db.close()


def said_counts(counts: dict[str, int]) -> str:
    """Counts as a director reads them: "1,204 games, 31 players, 12 nights" (the games always, the rest
    when there are any)."""
    words = {
        "games": ("%s game", "%s games"),
        "players": ("%s player", "%s players"),
        "nights": ("%s club night", "%s club nights"),
        "tournaments": ("%s tournament", "%s tournaments"),
        "club_boards": ("%s paired board", "%s paired boards"),
    }
    return (
        ", ".join(
            ngettext(*words[t], n) % format(n, ",") for t, n in counts.items() if t in words and (n or t == "games")
        )
        or ngettext(*words["games"], 0) % 0
    )


def said(backup: Backup) -> str:
    """A backup as a log line or a director reads it: "PATH (1.2 MB: 1,204 games, 31 players)"."""
    size = float(backup.size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            break
        size /= 1024
    amount = "%d %s" % (size, unit) if unit == "bytes" else "%.1f %s" % (size, unit)
    return "%s (%s: %s)" % (backup.path, amount, said_counts(backup.counts))


# --- SQLite ---------------------------------------------------------------------------------------


def _copy_sqlite(url: str, part: Path) -> None:
    source = open_sqlite(url, read_only=True)
    try:
        target = sqlite3.connect(str(part))
        try:
            source.conn.backup(target)  # (one step: a snapshot of one moment)
            # A file on its own, read with nothing beside it (no -wal, no -shm), as a backup is moved about
            target.execute("PRAGMA journal_mode = DELETE")
        finally:
            target.close()
    except sqlite3.Error as e:
        raise BackupError(_("the backup of %s failed: %s") % (path_of(url), e)) from None
    finally:
        source.close()


def _read_sqlite(path: Path) -> tuple[int, dict[str, int]]:
    try:
        conn = sqlite3.connect(_unchanging(path), uri=True)
        try:
            conn.row_factory = sqlite3.Row
            checked = [str(r[0]) for r in conn.execute("PRAGMA quick_check(3)")]
            if checked != ["ok"]:
                raise BackupError(_("%s is damaged: %s") % (path, "; ".join(checked)[:200]))
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "schema_version" not in tables:
                raise BackupRefused(_("%s is a SQLite database but not a cribboard one (no schema_version)") % path)
            version = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
            counts = {t: conn.execute("SELECT COUNT(*) FROM %s" % t).fetchone()[0] for t in COUNTED if t in tables}
        finally:
            conn.close()
    except sqlite3.Error as e:
        raise BackupError(_("%s is not a readable database: %s") % (path, e)) from None
    if not isinstance(version, int):
        raise BackupError(_("%s is damaged: its schema version is %r") % (path, version))
    return version, counts


def _restore_sqlite(path: Path, url: str) -> None:
    """The backup's pages over the database's, in one transaction of SQLite's (a restore cut off leaves the
    file as it was): whoever has the file open sees the restored database at their next read."""
    target_path = path_of(url)
    target = open_sqlite(url)  # (made, this user's alone, if it is not there)
    try:
        source = sqlite3.connect(_unchanging(path), uri=True)
        try:
            source.backup(target.conn)
        finally:
            source.close()
    except sqlite3.Error as e:
        raise BackupError(_("the restore into %s failed: %s") % (target_path, e)) from None
    finally:
        target.close()


# --- PostgreSQL -----------------------------------------------------------------------------------


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            _(
                "%s is not installed: a PostgreSQL database is backed up and restored by PostgreSQL's own tools "
                "(Debian and Ubuntu: apt install postgresql-client)"
            )
            % name
        )
    return found


def _run(args: list[str], what: str) -> str:
    """A PostgreSQL tool's run: its output, or BackupError with its own first line of complaint. No
    password is ever asked for (-w): libpq's PGPASSWORD or ~/.pgpass gives it, as for the server."""
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=_TOOL_S, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise BackupError(_("%s took over an hour and was stopped") % what) from None
    except OSError as e:
        raise BackupError(_("%s could not start: %s") % (what, e.strerror or e)) from None
    if done.returncode != 0:
        _failed(what, done.returncode, done.stderr)
    return done.stdout


def _dump(url: str, part: Path) -> None:
    _run(
        [_tool("pg_dump"), "-w", "--format=custom", "--file=%s" % part, "--dbname=%s" % url],
        _("pg_dump of %s") % safe_url(url),
    )


def _read_dump(path: Path) -> tuple[int, dict[str, int]]:
    """The dump's schema version and counts, read from its data (pg_restore writes it out as COPY blocks,
    read as they come: a season's games are not held in memory)."""
    listing = _run([_tool("pg_restore"), "--list", str(path)], _("pg_restore --list of %s") % path)
    listed = set(re.findall(r"TABLE DATA \S+ (\w+) ", listing))
    if "schema_version" not in listed:
        raise BackupRefused(_("%s is a pg_dump file but not of a cribboard database (no schema_version)") % path)
    counts = {t: 0 for t in COUNTED if t in listed}
    versions: list[int] = []
    what = _("pg_restore of %s") % path
    with _lines([_tool("pg_restore"), "--data-only", "--file=-", str(path)], what) as lines:
        table = None
        for line in lines:
            if table is None:
                found = _COPY.match(line)
                table = found[1] if found else None
            elif line == "\\.\n" or line == "\\.":
                table = None
            elif table == "schema_version" and line.strip().isdigit():
                versions.append(int(line))
            elif table in counts:
                counts[table] += 1
    if not versions:
        raise BackupError(_("%s is damaged: no schema version in it") % path)
    return max(versions), counts


@contextmanager
def _lines(args: list[str], what: str) -> Iterator[Iterator[str]]:
    """A PostgreSQL tool's output, line by line as it writes it; BackupError if it fails."""
    with tempfile.TemporaryFile() as errors:
        try:
            proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL, text=True)
        except OSError as e:
            raise BackupError(_("%s could not start: %s") % (what, e.strerror or e)) from None
        try:
            assert proc.stdout is not None
            yield proc.stdout
            proc.stdout.close()
            code = proc.wait(_TOOL_S)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if code != 0:
            errors.seek(0)
            _failed(what, code, errors.read().decode(errors="replace"))


def _failed(what: str, code: int, stderr: str) -> None:
    said = [line for line in stderr.splitlines() if line.strip()]
    raise BackupError(_("%s failed: %s") % (what, (said[0] if said else "exit status %d" % code)[:300]))


def _pg_restore(path: Path, url: str, clean: bool) -> None:
    args = [_tool("pg_restore"), "-w", "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error"]
    if clean:  # (a database with cribboard's tables, empty or said --over: they are replaced)
        args += ["--clean", "--if-exists"]
    _run([*args, "--dbname=%s" % url, str(path)], _("pg_restore into %s") % safe_url(url))


# --- both -----------------------------------------------------------------------------------------


def _tables(db: Database) -> set[str]:
    if db.engine == "sqlite":
        return {r["name"] for r in db.all("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return {
        r["table_name"]
        for r in db.all("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
    }


def _counts(db: Database, tables: set[str]) -> dict[str, int]:
    return {t: int(db.value("SELECT COUNT(*) FROM %s" % t)) for t in COUNTED if t in tables}


def _ready(folder: Path, create: bool) -> None:
    """The backups' folder, there and writable (create: made, this user's alone, if it is not there)."""
    if create:
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as e:
            raise BackupError(_("cannot make the backup folder %s: %s") % (folder, e.strerror or e)) from None
    if not folder.exists():
        raise BackupRefused(_("there is no folder %s to put the backup in") % folder)
    if not folder.is_dir():
        raise BackupRefused(_("the backup folder %s is not a folder") % folder)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BackupError(_("the backup folder %s is not writable by this user") % folder)


def _private(path: Path) -> None:
    """The file made empty, readable by this user alone, before anything is written to it (a backup holds
    the boards' keys)."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except OSError as e:
        raise BackupError(_("cannot write in %s: %s") % (path.parent, e.strerror or e)) from None


def _fsynced(path: Path) -> None:
    """The file's bytes on the disk before it is renamed a backup."""
    with path.open("rb+") as f:
        os.fsync(f.fileno())


def _synced(folder: Path) -> None:
    """The rename on the disk, not only in the page cache (a machine that loses its power next keeps it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unchanging(path: Path) -> str:
    """A backup's SQLite URI: read only, and as a file no one changes (nothing is made beside it)."""
    return "file:%s?mode=ro&immutable=1" % urllib.parse.quote(str(path.absolute()))


def _engine_name(engine: str) -> str:
    return "SQLite" if engine == "sqlite" else "PostgreSQL"


def where(url: str) -> str:
    """The database as a message names it (a PostgreSQL URL without its password)."""
    return safe_url(url) if is_server(url) else str(path_of(url))


def milestones(db: Database) -> int:
    """How many club nights and tournaments have begun, and how many have ended, added: one more is a moment
    of the season worth a backup (a night's draw and seats, its end)."""
    tables = _tables(db)
    return sum(
        int(db.value("SELECT COUNT(*) + COUNT(ended_at) FROM %s" % t)) for t in ("nights", "tournaments") if t in tables
    )


def made_at(path: Path) -> datetime | None:
    """When a backup was made, from its name (None for a name this tool does not give)."""
    found = _NAME.fullmatch(path.name)
    if found is None:
        return None
    return datetime.strptime(found[1], "%Y%m%d-%H%M%S").replace(tzinfo=timezone.utc)
