# Files the tool writes for the user (a chart, an export): every step
# checked, the write, the flush and the close, so a full disk or a device
# that refuses (/dev/full) is an error, never a file reported written.
from pathlib import Path

from cribboard.errors import CribboardError
from cribboard.text.i18n import _


def write(path: str | Path, data: bytes) -> None:
    """Write data to path; CribboardError (one line) if any step fails."""
    try:
        with open(path, "wb") as f:
            f.write(data)
            f.flush()  # the close flushes too, but a failure there is easier to miss
    except OSError as e:
        raise CribboardError(_("cannot write %s: %s") % (path, e.strerror or e)) from None
