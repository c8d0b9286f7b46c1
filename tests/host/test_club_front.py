# The club's ASGI front on its own (cribboard.club.front), each request as
# uvicorn hands it over: a fault of the server's is a 500 and a log line,
# the live JSON is made once for many who ask, and what is cached is never
# given to a request the guard refuses.
import logging

import asgi
import clubserver
from test_club_property import Log

from cribboard.club.app import ClubApp
from cribboard.club.front import Front
from cribboard.club.protocol import Club
from cribboard.seating import Seating


def get(path, host="127.0.0.1:8120", query=b""):
    headers = [(b"host", host.encode())]
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": query,
        "headers": headers,
        "client": ("10.0.0.7", 5),
    }


def serving(tmp_path):
    db_url = str(tmp_path / "club.db")
    clubserver.pair(db_url, "b0ard")
    club = Club(db_url, Seating())
    app = ClubApp(club)
    app.served = ("127.0.0.1", 8120)
    return club, app, Front(app, None, 2, 1)


def test_a_fault_of_the_servers_is_a_500_and_one_line(tmp_path):
    club, app, front = serving(tmp_path)
    lines = Log()  # (its lines: lines.lines)
    logging.getLogger("club").addHandler(lines)
    try:
        app.routes.get("/boom", lambda request: 1 // 0)
        status, _headers, body = asgi.call(front, get("/boom"))
        assert (status, body) == (500, b'{"error": "the club\'s server failed on this request"}')
        assert [line for line in lines.lines if "failed on GET '/boom'" in line and "ZeroDivisionError" in line]
    finally:
        logging.getLogger("club").removeHandler(lines)
        front.close()
        club.close()


def test_the_live_json_is_made_once_for_those_who_ask_and_never_past_the_guard(tmp_path):
    club, app, front = serving(tmp_path)
    made = []
    answer = app.answer
    app.answer = lambda request: made.append(request.path) or answer(request)
    try:
        first = asgi.call(front, get("/api/night"))
        assert first[0] == 200
        assert asgi.call(front, get("/api/night")) == first  # within CACHE_S: the one made
        assert made == ["/api/night"]
        status, _headers, _body = asgi.call(front, get("/api/night", host="evil.example:8120"))
        assert status == 403  # (a page that names another host gets nothing, cached or not)
    finally:
        front.close()
        club.close()
