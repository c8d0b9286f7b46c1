# The time an event's changes are stamped with, the same for every event.
from datetime import datetime, timezone


def now() -> str:
    """Now, in UTC, to the second, ISO 8601."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
