# The simulated boards running for this user, so that a command given no
# --port finds one as it finds a plugged-in board. Each `cribboard sim`
# writes a small file in the user's runtime folder (XDG_RUNTIME_DIR; with
# none, this HOME's cache folder) and holds it locked while it runs; a file
# nobody holds is from a simulator that was killed, and is removed by the
# next reader. A lock, not a process
# id, says who is alive: a process id is reused, a lock ends with its holder.
import fcntl
import json
import os
import sys
import warnings
from pathlib import Path
from typing import IO, Any

import platformdirs


def folder() -> Path:
    if os.name == "posix" and sys.platform != "darwin" and not os.environ.get("XDG_RUNTIME_DIR"):
        # No runtime folder of this login's (a root shell, a container, a cron job): platformdirs would take
        # /tmp/runtime-UID, which every HOME of the user shares, and a command in one HOME would find
        # another's simulated board. This HOME's cache folder is this HOME's alone.
        return Path(platformdirs.user_cache_dir("cribboard")) / "sims"
    with warnings.catch_warnings():
        # No XDG_RUNTIME_DIR (a root shell, a container): platformdirs takes a folder of this user's own
        # instead, rightly, and warns of it (4.x), a line no user of this command can act on.
        warnings.simplefilter("ignore", getattr(platformdirs, "RuntimeDirWarning", UserWarning))
        return Path(platformdirs.user_runtime_dir("cribboard")) / "sims"


def announce(port: str, flash: Path) -> "_Announced | None":
    """Say that a simulated board runs on port, for as long as the returned file stays open (None if the
    runtime folder cannot be written: the board still runs, and is found with --port)."""
    try:
        where = folder()
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        final = where / ("%d.json" % os.getpid())  # (one simulator a process)
        f = open(final.with_suffix(".tmp"), "w")
        fcntl.flock(f, fcntl.LOCK_EX)  # locked and whole before a reader can see it
        f.write(json.dumps({"port": port, "flash": str(flash), "pid": os.getpid()}))
        f.flush()
        os.replace(f.name, final)
        return _Announced(f, final)
    except OSError:
        return None


class _Announced:
    """The open, locked file of a running simulated board, and where it is."""

    def __init__(self, f: IO[str], path: Path) -> None:
        self.file, self.path = f, path


def withdraw(announced: "_Announced | None") -> None:
    """The board has stopped: its file goes (and its lock with it)."""
    if announced is None:
        return
    try:
        announced.path.unlink()
    except OSError:
        pass
    announced.file.close()


def running() -> list[dict[str, Any]]:
    """The simulated boards running now: {"port", "flash", "pid"} each."""
    try:
        names = sorted(folder().glob("*.json"))
    except OSError:
        return []
    found = []
    for path in names:
        try:
            with open(path) as f:
                try:
                    fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
                except BlockingIOError:  # held: its simulator runs
                    found.append(json.loads(f.read()))
                    continue
                path.unlink()  # nobody holds it: its simulator was killed
        except (OSError, ValueError):
            continue  # gone meanwhile, or being written
    return [s for s in found if isinstance(s, dict) and isinstance(s.get("port"), str)]
