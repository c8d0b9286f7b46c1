# The guard on every request to the pages' two servers (the board's, the
# club's): each answers only to its own address (a DNS-rebinding page names
# another host) and takes writes only from its own page (a press) or from no
# page at all (a board's report); a body is bounded in size and in how deep
# its JSON nests. The club's server may also be reached under the public
# address a reverse proxy serves it at (serve --public-url): that origin is
# its own too.
import ipaddress
import json
import urllib.parse
from collections.abc import Sequence
from typing import Any

from cribboard.records import json_depth
from cribboard.text.i18n import _
from cribboard.web.http import Answer, Request, refused

MAX_BODY = 4096  # bytes of a request body
MAX_DEPTH = 8  # nesting of a request's JSON (a press is one flat object)
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")


def public_origin(url: str) -> str:
    """The origin a browser names for pages served at url (scheme://host[:port], lower case): what serve
    --public-url takes; ValueError for anything else (a path, a query, another scheme)."""
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(_("not an http:// or https:// address"))
    if parts.username or parts.password:
        raise ValueError(_("no user or password in it"))
    try:
        port = parts.port
    except ValueError:
        raise ValueError(_("its port is 1 to 65535")) from None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(_("an address with no path: the server's pages are at its root"))
    default = {"http": 80, "https": 443}[parts.scheme]
    host = parts.hostname if ":" not in parts.hostname else "[%s]" % parts.hostname
    return "%s://%s%s" % (parts.scheme, host, "" if port in (None, default) else ":%d" % port)


def host_allowed(host_header: str, served: tuple[str, int], public: Sequence[str] = ()) -> bool:
    """Whether a request's Host (or an Origin's host and port) names this
    server: its port, and its own address, a loopback name, or any IP
    address when it serves all of them (0.0.0.0); or a public origin's
    host (public: public_origin's). Other names are refused: a
    DNS-rebinding page would bring its own."""
    if public and any(host_header.lower() == origin.split("://", 1)[1] for origin in public):
        return True
    name, sep, port = host_header.rpartition(":")
    if not sep or not port.isdigit() or int(port) != served[1]:
        return False
    name = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    if name in LOCAL_NAMES or name == served[0]:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return served[0] in ("0.0.0.0", "::")


def origin_allowed(origin: str, served: tuple[str, int], public: Sequence[str] = ()) -> bool:
    return origin.lower() in public or (origin.startswith("http://") and host_allowed(origin[len("http://") :], served))


def host_refusal(request: Request, served: tuple[str, int], public: Sequence[str] = ()) -> Answer | None:
    """A 403 for a request whose Host names another server (none: not a browser, taken)."""
    host = request.headers.get("host")
    if host is None or host_allowed(host, served, public):
        return None
    return refused(403, "this server answers to %s:%d, not %s" % (served[0], served[1], ascii(host[:60])), close=True)


def write_refusal(
    request: Request, served: tuple[str, int], page_writes: bool, max_body: int, public: Sequence[str] = ()
) -> Answer | None:
    """A refusal for a write that no page elsewhere may make, and that says its size: from this server's own
    page only (page_writes: the board's page presses) or from no page at all (a club's boards post reports,
    and a browser always names its page's Origin); a JSON body of at most max_body bytes."""
    origin = request.headers.get("origin")
    if origin is not None and not (page_writes and origin_allowed(origin, served, public)):
        mine = "this server's own page" if page_writes else "a board, never from a page"
        return refused(403, "writes come from %s, not from %s" % (mine, ascii(origin[:60])), close=True)
    if request.headers.get("sec-fetch-site", "none") not in ("same-origin", "none"):
        return refused(403, "writes come from this server's own page or its boards", close=True)
    kind = request.headers.get("content-type", "")
    if kind.split(";")[0].strip().lower() != "application/json":
        return refused(403, "send application/json, not %s" % ascii(kind[:40] or "no Content-Type"), close=True)
    size = request.headers.get("content-length", "")
    if not (size.isascii() and size.isdigit()):
        return refused(411, "say the body's Content-Length", close=True)
    if int(size) > max_body:
        return refused(413, "a body here is at most %d bytes" % max_body, close=True)
    return None


def json_object(
    request: Request, served: tuple[str, int], max_body: int, public: Sequence[str] = ()
) -> dict[str, Any] | Answer:
    """The JSON object a page of this server wrote (write_refusal's checks, then its body read whole and
    parsed), or the refusal to answer with."""
    refusal = write_refusal(request, served, page_writes=True, max_body=max_body, public=public)
    if refusal is not None:
        return refusal
    size = int(request.header("content-length"))
    data = request.read(size)
    if len(data) != size:
        return refused(400, "the body was cut short")
    try:
        if json_depth(data) > MAX_DEPTH:
            raise ValueError("the JSON nests deeper than %d" % MAX_DEPTH)
        body = json.loads(data or b"{}")
    except (ValueError, RecursionError) as e:
        return refused(400, "the body is no JSON: %s" % str(e)[:80])
    if not isinstance(body, dict):
        return refused(400, "send a JSON object")
    return body
