# Files the tool writes for the user (a chart, an export): every step
# checked, the write, the flush and the close, so a full disk or a device
# that refuses (/dev/full) is an error, never a file reported written.
import sys
from pathlib import Path

from cribboard.errors import CribboardError
from cribboard.text.i18n import _


def write(path: str | Path, data: bytes) -> None:
    """Write data to path ("-": the standard output, as most tools' -o has it); CribboardError (one line)
    if any step fails."""
    if str(path) == "-":
        if sys.stdout.isatty():  # (a PNG or a PDF on a terminal is a screenful of noise)
            raise CribboardError(_("not writing a binary file to a terminal: -o FILE, or -o - into a pipe"))
        try:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        except BrokenPipeError:
            raise  # (the reader wanted no more: the command ends quietly, as at any other write)
        except OSError as e:
            raise CribboardError(_("cannot write to the standard output: %s") % (e.strerror or e)) from None
        return
    try:
        with open(path, "wb") as f:
            f.write(data)
            f.flush()  # the close flushes too, but a failure there is easier to miss
    except OSError as e:
        raise CribboardError(_("cannot write %s: %s") % (path, e.strerror or e)) from None
