# The club's server behind a reverse proxy that serves it under a name with
# TLS (serve --public-url): the proxy's address is the server's own, so a
# player's page there opens and sends the player's result, while a page of
# any other name is still refused (a DNS-rebinding page, another site's).
import json

import asgi
import pytest
from test_claims import night, seats

from cribboard.web.guard import host_allowed, origin_allowed, public_origin

PUBLIC = "https://club.example.org"


def test_a_public_url_is_the_origin_a_browser_names_and_nothing_else_is_taken():
    assert public_origin("https://Club.Example.org/") == PUBLIC
    assert public_origin("https://club.example.org:443") == PUBLIC
    assert public_origin("http://club.example.org:8080/") == "http://club.example.org:8080"
    assert public_origin("https://[2001:db8::1]:8443/") == "https://[2001:db8::1]:8443"
    for wrong, why in (
        ("club.example.org", "not an http:// or https:// address"),
        ("ftp://club.example.org/", "not an http:// or https:// address"),
        ("https://club.example.org/night", "no path"),
        ("https://club.example.org/?x=1", "no path"),
        ("https://ann:secret@club.example.org/", "no user or password"),
        ("https://club.example.org:99999/", "its port is 1 to 65535"),
    ):
        with pytest.raises(ValueError, match=why):
            public_origin(wrong)
    served, public = ("0.0.0.0", 8120), (PUBLIC,)
    assert host_allowed("club.example.org", served, public) and not host_allowed("club.example.org", served)
    assert not host_allowed("club.example.org:8120", served, public), "the name is the proxy's, not this port's"
    assert not host_allowed("evil.example", served, public)
    assert origin_allowed(PUBLIC, served, public) and not origin_allowed("http://club.example.org", served, public)
    assert not origin_allowed("https://evil.example", served, public)


@pytest.mark.parametrize("public", [(), (PUBLIC,)])
def test_a_players_page_behind_the_proxy_opens_and_sends_only_when_serve_is_told_its_public_url(tmp_path, public):
    from cribboard.club.app import ClubApp
    from cribboard.club.front import Front
    from cribboard.club.protocol import Club
    from cribboard.seating import Seating as BoardsSeating

    db = str(tmp_path / "club.db")
    code = night(db)
    _first, _rows = seats(db, 1)
    club = Club(db, BoardsSeating())
    app = ClubApp(club, public)
    app.served = ("127.0.0.1", 8120)  # (behind the proxy, on the machine's loopback)
    front = Front(app, None, 2, 1)

    def call(method, path, body=b"", host="club.example.org", origin=PUBLIC):
        headers = {"host": host, "origin": origin, "sec-fetch-site": "same-origin"}
        if method == "POST":
            headers.update({"content-type": "application/json", "content-length": str(len(body))})
        else:
            del headers["origin"]
        scope = {
            "type": "http",
            "method": method,
            "path": path,
            "query_string": b"",
            "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
            "client": ("10.0.0.9", 50000),
        }
        status, _headers, _answer = asgi.call(front, scope, body)
        return status

    word = json.dumps({"code": code["Ann"], "key": "k-ann-000001", "scores": [121, 101]}).encode()
    try:
        if public:
            assert call("GET", "/me") == 200
            assert call("POST", "/api/me/result", word) == 200, "a phone on the proxy's page sends its result"
            assert call("POST", "/api/me/result", word, origin="https://evil.example") == 403
            assert call("GET", "/me", host="evil.example") == 403, "a DNS-rebinding page is still refused"
        else:
            assert call("GET", "/me") == 403, "a name this server was not told is not its own"
            assert call("POST", "/api/me/result", word, host="127.0.0.1:8120") == 403, "nor a page of that name's"
        assert call("GET", "/me", host="127.0.0.1:8120") == 200, "its own address, always"
    finally:
        club.close()
