# What a board is told once over USB and keeps in a file of its own: the
# club's WiFi (wifi.json: ssid, password) and the club's server it reports
# to (club.json: server, key). Never sent back over the link, never in the
# saved state or a record. Loaded for the one command, then forgotten.
import json

from cribapp.flashfs import replace
from cribcore import CoreError, const

# The codes of cribcore.messages.
_LENGTH = const(1301)
_USAGE = const(1302)
_CLUB = const(1303)

FILES = {"wifi": "wifi.json", "club": "club.json"}


def _text(data, name, low, high):
    v = data.get(name)
    if not isinstance(v, str) or not low <= len(v) <= high:
        raise CoreError(_LENGTH, (name, low, high))
    return v


def checked(kind, data):
    """The settings to keep, only the fields that kind has; ValueError says which is wrong."""
    if kind not in FILES or not isinstance(data, dict):
        raise CoreError(_USAGE, ())
    if kind == "wifi":
        return {"ssid": _text(data, "ssid", 1, 32), "password": _text(data, "password", 0, 63)}
    server = _text(data, "server", 8, 100)
    key = _text(data, "key", 32, 128)
    if not server.startswith("http://") or [c for c in key if c not in "0123456789abcdef"]:
        raise CoreError(_CLUB, ())
    return {"server": server, "key": key}


def keep(files, kind, data):
    """Write kind's file whole (a temporary file renamed over it: a power cut leaves the old or the new)."""
    kept = json.dumps(checked(kind, data))
    tmp = FILES[kind] + ".tmp"
    f = files.open(tmp, "wb")
    try:
        f.write(kept.encode())
    finally:
        f.close()
    replace(files, tmp, FILES[kind])
