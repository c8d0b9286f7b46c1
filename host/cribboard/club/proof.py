# A pairing proves itself: once the key is in the club's database, `cribboard
# pair` sends the club's server one request signed with it, as the board
# will (its live state, so it shows on the page at once), before the board
# is given the key. Only a signed 200 is a pairing that works; anything else
# says which of three things is wrong: the server is not there, it is not a
# club's server, or it keeps its boards in another database than the one
# the key went into.
import http.client
import json
from typing import Any
from urllib.parse import urlsplit

from cribboard.club.protocol import acknowledged, board_headers
from cribcore.clubwire import LIVE, SIGNATURE

PROOF_COUNTER = "0.1"  # before any counter of the board's own (its boot count starts at 1)
TIMEOUT_S = 10.0  # a server on the club's network answers in milliseconds


class NotThere(Exception):
    """Nothing answered at the address (why: the socket's words)."""


class NotAClub(Exception):
    """Something answered, but not as a club's server does (what: its status and a little of it)."""


class OtherDatabase(Exception):
    """The server answered as a club's, but does not know the key just paired (why: its words)."""


def prove(server_url: str, board: str, key: str, state: Any, counter: str = PROOF_COUNTER) -> None:
    """Send the board's live state to the server, signed with key as the board signs, under counter;
    return only if the server took it and signed its answer with the same key."""
    where = urlsplit(server_url)
    data = json.dumps({"state": state}).encode()
    headers = board_headers(key.encode(), LIVE, board, counter, data)
    conn = http.client.HTTPConnection(where.hostname or "", where.port or 80, timeout=TIMEOUT_S)
    try:
        conn.request("POST", LIVE, data, headers)
        answer = conn.getresponse()
        raw = answer.read(64 * 1024)
    except (OSError, http.client.HTTPException) as e:
        raise NotThere(getattr(e, "strerror", None) or str(e) or type(e).__name__) from None
    finally:
        conn.close()
    said = _said(raw) if answer.getheader("Content-Type") == "application/json" else None
    if answer.status == 200 and said is not None:
        if acknowledged(key.encode(), LIVE, board, counter, raw, answer.getheader(SIGNATURE)):
            return
        raise NotAClub("200 without the club's signature")
    if (
        answer.status == 403
        and said is not None
        and said.get("error") in ("not a paired board", "bad signature", "its key was revoked")
    ):
        raise OtherDatabase(said["error"])
    if said is not None and "error" in said:
        raise NotAClub("%d %s" % (answer.status, ascii(str(said["error"])[:80])))
    raise NotAClub("%d %s" % (answer.status, ascii(raw[:40])))


def _said(raw: bytes) -> dict[str, Any] | None:
    try:
        said = json.loads(raw)
    except ValueError:
        return None
    return said if isinstance(said, dict) else None
