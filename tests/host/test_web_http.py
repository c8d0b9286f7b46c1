# The routing table and the guard both HTTP fronts share (cribboard.web.http, cribboard.web.guard), on their
# own: what a path no one answers, a method its path does not take, a HEAD and a write from the wrong place
# get. (The fronts themselves are tested with real HTTP: test_web_guard.py, test_club_service.py.)
import pytest

from cribboard.web import guard
from cribboard.web.http import Answer, Request, Routes

SERVED = ("127.0.0.1", 8121)


def request(method="GET", path="/", headers=None, body=b""):
    return Request(method, path, "", headers or {}, "10.0.0.9", lambda n: body[:n])


def test_a_path_no_one_answers_is_404_and_a_method_it_does_not_take_405_naming_those_it_does():
    routes = Routes()
    routes.get("/page", lambda r: Answer(200, b"page"))
    routes.post("/press", lambda r: Answer(200, {"ok": True}))
    assert routes.answer(request("GET", "/page")).body == b"page"
    assert routes.answer(request("HEAD", "/page")).status == 200  # a GET route's head
    missing = routes.answer(request("GET", "/nowhere"))
    assert (missing.status, missing.body) == (404, {"error": "no such page: '/nowhere'"})
    assert "\n" not in routes.answer(request("GET", "/a\nb")).body["error"]  # (a refusal may be logged)
    wrong = routes.answer(request("GET", "/press"))
    assert (wrong.status, wrong.headers) == (405, {"Allow": "POST"})
    assert routes.answer(request("DELETE", "/page")).headers == {"Allow": "GET, HEAD"}
    with pytest.raises(ValueError, match="has a handler already"):
        routes.get("/page", lambda r: Answer(200, b"again"))


def test_an_answer_says_its_length_and_is_never_kept_by_a_cache():
    answer = Answer(201, {"a": "é"}, headers={"Retry-After": "5"})
    data = answer.data()
    assert data == b'{"a": "\\u00e9"}'
    assert answer.status_line() == "201 Created"
    assert answer.head(data) == [
        ("Content-Type", "application/json"),
        ("Content-Length", str(len(data))),
        ("Cache-Control", "no-store"),
        ("Retry-After", "5"),
    ]


def test_the_host_must_name_this_server():
    assert guard.host_refusal(request(headers={}), SERVED) is None  # no Host: not a browser
    assert guard.host_refusal(request(headers={"host": "localhost:8121"}), SERVED) is None
    refusal = guard.host_refusal(request(headers={"host": "evil.example:8121"}), SERVED)
    assert refusal is not None
    assert (refusal.status, refusal.close) == (403, True)


JSON_OF = {"content-type": "application/json", "content-length": "2"}


@pytest.mark.parametrize(
    "headers, page_writes, status",
    [
        (JSON_OF, True, None),
        (JSON_OF, False, None),
        (dict(JSON_OF, origin="http://127.0.0.1:8121"), True, None),  # the page's own press
        (dict(JSON_OF, origin="http://127.0.0.1:8121"), False, 403),  # a board sends no Origin: a page does
        (dict(JSON_OF, origin="http://evil.example"), True, 403),
        (dict(JSON_OF, **{"sec-fetch-site": "cross-site"}), True, 403),
        (dict(JSON_OF, **{"content-type": "text/plain"}), False, 403),
        ({"content-type": "application/json"}, False, 411),
        (dict(JSON_OF, **{"content-length": "-1"}), True, 411),
        (dict(JSON_OF, **{"content-length": "4097"}), True, 413),
    ],
)
def test_a_write_comes_from_the_right_place_as_json_of_a_said_size(headers, page_writes, status):
    refusal = guard.write_refusal(request("POST", "/x", headers), SERVED, page_writes, 4096)
    assert (refusal.status if refusal is not None else None) == status
