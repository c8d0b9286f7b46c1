# The guard on every request to a local page: it answers only to its own
# address (a DNS-rebinding page names another host) and takes writes only
# from its own page; a body is bounded in size and in how deep its JSON nests.
import ipaddress

MAX_BODY = 4096  # bytes of a request body
MAX_DEPTH = 8  # nesting of a request's JSON (a press is one flat object)
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")


def host_allowed(host_header: str, served: tuple[str, int]) -> bool:
    """Whether a request's Host (or an Origin's host and port) names this
    server: its port, and its own address, a loopback name, or any IP
    address when it serves all of them (0.0.0.0). Names other than
    localhost are refused: a DNS-rebinding page would bring its own."""
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


def origin_allowed(origin: str, served: tuple[str, int]) -> bool:
    return origin.startswith("http://") and host_allowed(origin[len("http://") :], served)
