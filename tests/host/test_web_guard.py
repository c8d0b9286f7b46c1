# The board's page takes writes only from itself: a foreign Origin, a body
# that is not JSON, a Host that is not the served address (DNS rebinding),
# deep nesting and a lying Content-Length are refused with real HTTP
# requests; and a real page on another local port, in chromium, cannot
# press a button. The board here records presses (the HTTP layer is what
# is tested; tests/host/test_sim_api.py presses a real simulated board).
import http.client
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from deadline import WAIT_S
from test_browser import CHROMIUM_FLAGS, chromium_path

from cribboard.web import server as web_server


class RecordingBoard:
    frames = 7

    def __init__(self):
        self.layout = {"name": "2-track"}
        self.pressed = []

    def buttons(self):
        return ["P1", "P2", "UNDO", "SKUNK", "OK"]

    def leds(self):
        return []

    def press(self, button, gesture):
        self.pressed.append((button, gesture))
        return self.frames

    def scoreboard(self):
        return None


@pytest.fixture
def served():
    board = RecordingBoard()
    server = web_server.make_server(board, "127.0.0.1", 0)
    yield board, server.server_address[1]
    server.shutdown()


def post(port, body, headers=None, host=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
    h = {"Content-Type": "application/json"}
    h.update(headers or {})
    if host is not None:
        conn.putrequest("POST", "/api/press", skip_host=True)
        conn.putheader("Host", host)
        for k, v in h.items():
            conn.putheader(k, v)
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        conn.putheader("Content-Length", str(len(data)))
        conn.endheaders(data)
    else:
        conn.request("POST", "/api/press", body=body if isinstance(body, bytes) else json.dumps(body), headers=h)
    r = conn.getresponse()
    out = r.status, json.loads(r.read() or b"{}")
    conn.close()
    return out


def test_the_own_page_presses_and_is_told_the_frame_that_shows_it(served):
    board, port = served
    own = {"Origin": "http://127.0.0.1:%d" % port, "Sec-Fetch-Site": "same-origin"}
    assert post(port, {"button": "P1"}, own) == (200, {"ok": True, "frame": 7})
    assert post(port, {"button": "OK", "gesture": "long"}, {"Origin": "http://localhost:%d" % port}) == (
        200,
        {"ok": True, "frame": 7},
    )
    assert board.pressed == [("P1", "tap"), ("OK", "long")]


def test_foreign_pages_hosts_and_bodies_are_refused(served):
    board, port = served
    press = {"button": "SKUNK"}
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://127.0.0.1:%d" % (port + 1)},
        {"Sec-Fetch-Site": "cross-site"},
        {"Content-Type": "text/plain"},
        {"Content-Type": "application/x-www-form-urlencoded"},
        {"Content-Type": "multipart/form-data; boundary=x"},
    ):
        status, body = post(port, press, headers)
        assert status == 403 and body["error"], headers
    for host in ("attacker.example:%d" % port, "127.0.0.1:1", "localhost.attacker.example:%d" % port):
        assert post(port, press, host=host)[0] == 403, host
    assert post(port, press, host="localhost:%d" % port)[0] == 200
    assert post(port, b"[" * 5000 + b"]" * 5000)[0] == 413  # over the body limit
    assert post(port, b"[" * 900 + b"]" * 900)[0] == 400  # nested too deep (no RecursionError)
    assert post(port, b'{"button": "P1", "x": [[[[[[[[[[1]]]]]]]]]]}')[0] == 400
    assert post(port, b"not json")[0] == 400
    assert board.pressed == [("SKUNK", "tap")]  # only the one through localhost


def test_a_lying_content_length_does_not_hold_a_thread(served):
    board, port = served
    for length in ("-1", "abc", "99999999"):
        with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as s:
            s.sendall(
                b"POST /api/press HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                b"Content-Length: %s\r\n\r\n" % (port, length.encode())
            )
            reply = s.recv(4096)  # answered at once, not after the client gives up
        assert reply.split(b" ")[1] in (b"411", b"413"), (length, reply[:40])
    assert board.pressed == []


def test_a_real_cross_origin_page_cannot_press(served):
    from playwright.sync_api import sync_playwright

    board, port = served
    chromium = chromium_path()
    # A page on another local port that tries everything a page can without CORS.
    evil = (
        b"<!doctype html><form id=f method=post enctype=text/plain action='http://127.0.0.1:%d/api/press'>"
        b'<input name=\'{"button": "SKUNK", "x": "\' value=\'"}\'></form><script>'
        b"fetch('http://127.0.0.1:%d/api/press', {method: 'POST', mode: 'no-cors', "
        b"headers: {'Content-Type': 'text/plain'}, body: JSON.stringify({button: 'SKUNK'})})"
        b".finally(() => { document.title = 'sent'; document.getElementById('f').submit(); });"
        b"</script>" % (port, port)
    )

    class Evil(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(evil)))
            self.end_headers()
            self.wfile.write(evil)

        def log_message(self, *args):
            pass

    other = ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            try:
                page = browser.new_page()
                page.goto("http://127.0.0.1:%d/" % other.server_address[1])
                page.wait_for_url("**/api/press")  # the form's POST went: its answer replaced the page
                page.wait_for_load_state()
                assert "writes come from this server's own page" in page.content()
            finally:
                browser.close()
    finally:
        other.shutdown()
    assert board.pressed == []  # neither the fetch nor the form pressed anything


def get(port, path, host=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT_S)
    conn.putrequest("GET", path, skip_host=host is not None)
    if host is not None:
        conn.putheader("Host", host)
    conn.endheaders()
    reply = conn.getresponse()
    body = json.loads(reply.read())
    conn.close()
    return reply.status, body


def test_the_discard_question_answers_and_a_bad_or_hostile_one_is_a_clear_400(served):
    _, port = served
    status, body = get(port, "/api/discard?cards=5H+5S+JD+4C+6H+KH&players=2&crib=dealer")
    assert status == 200
    assert body["throws"][0]["throw"] == ["JD", "KH"]
    assert len(body["throws"]) == 15
    for query, why in (
        ("cards=5H+5S&crib=dealer", "give 6, not 2"),
        ("cards=5H+5H+JD+4C+6H+KH&crib=dealer", "duplicate"),
        ("cards=5H+5S+JD+4C+6H+KH", "whose crib"),
        ("cards=5H+5S+JD+4C+6H+KH&crib=me", "whose crib"),
        ("cards=5H+5S+JD+4C+6H+KH&crib=dealer&players=9", "players is 2, 3 or 4"),
        ("cards=%3Cscript%3E&crib=dealer", "unknown card"),
        ("cards=" + "5H+" * 100 + "&crib=dealer", "at most 200 characters"),
        ("cards=5H+5S+JD+4C+6H+KH&crib=partner", "--players 4"),
    ):
        status, body = get(port, "/api/discard?" + query)
        assert status == 400 and why in body["error"], (query, body)
    status, body = get(port, "/api/discard?cards=5H+5S+JD+4C+6H+KH&crib=dealer", host="evil.example:%d" % port)
    assert status == 403


def test_a_client_gone_mid_answer_prints_nothing_and_other_errors_still_do(capsys):
    server = web_server.Server(("127.0.0.1", 0), BaseHTTPRequestHandler)
    try:
        for gone in (BrokenPipeError(32, "Broken pipe"), ConnectionResetError(104, "reset")):
            try:
                raise gone
            except ConnectionError:
                server.handle_error(None, ("127.0.0.1", 1))
        assert capsys.readouterr().err == ""  # a reload or a closed tab: no traceback
        try:
            raise ValueError("a real bug")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert "ValueError: a real bug" in capsys.readouterr().err
    finally:
        server.server_close()
