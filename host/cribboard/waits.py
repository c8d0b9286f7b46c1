# How long the tool waits, as the environment may set it (CRIBBOARD_DB_WAIT,
# CRIBBOARD_LINK_WAIT): a value that is no number of seconds in range is a
# usage error, said once, not taken silently as the default or as "forever"
# (libpq reads a connect_timeout of 0 as no limit).
import math
import os

from cribboard.errors import UsageError
from cribboard.text.i18n import _

MOST_S = 3600  # an hour: past it, a wait is a mistake, not patience
LINK_WAIT_S = 3.0  # a try's wait for a board's answer, unless CRIBBOARD_LINK_WAIT says otherwise


def seconds(name: str, default: float, whole: bool = False) -> float:
    """The seconds the environment variable name gives (more than 0, at most MOST_S; whole seconds if
    whole), or default when it is unset or empty; UsageError for anything else."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= MOST_S:  # (nan and inf fail it too)
        said = (
            _("%(name)s wants whole seconds, more than 0 and at most %(most)d, not %(text)s")
            if whole
            else _("%(name)s wants seconds, more than 0 and at most %(most)d, not %(text)s")
        )
        raise UsageError(said % {"name": name, "most": MOST_S, "text": ascii(text)[1:-1][:40]})
    return value


def link_wait() -> float:
    """Seconds to wait for a board's answer, each try (CRIBBOARD_LINK_WAIT; a board answers in
    milliseconds, a simulated one on a very busy machine may take seconds)."""
    return seconds("CRIBBOARD_LINK_WAIT", LINK_WAIT_S)
