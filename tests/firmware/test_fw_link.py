# The serial link: every command, every kind of bad line, and a fuzz of
# thousands of random and mutated lines that must never stop the board.
import json
import sys

from cribapp.hostapi import HostApi
from cribcore.seal import seal, unseal
from cribcore.serialwire import LIST_LIMIT, MAX_LINE, PROTOCOL

from check import Lcg
from rig import FakeClock, Table, log_records, play


def replies(lines):
    out = []
    for line in lines:
        text = unseal(line)
        assert text is not None, line  # everything the board says is sealed
        out.append(text)
    return out


def test_hello_names_board_firmware_and_protocol():
    t = Table()
    t.connect()
    (hello,) = replies(t.ask("HELLO"))
    words = dict(w.split("=") for w in hello.split()[1:])
    assert hello.startswith("HELLO ")
    assert words["board"] == "test-board"
    assert words["proto"] == str(PROTOCOL)
    assert words["seq"] == "0"
    assert words["acked"] == "0"
    assert int(words["boot"]) == 1
    assert 0 <= int(words["ticks"]) < 1 << 30  # the board's own ms counter, wrapping
    assert words["period"] == str(1 << 30)  # where it wraps: MicroPython's


def test_hello_says_where_a_circuitpython_clock_wraps_and_a_game_crosses_the_wrap():
    t = Table(clock=FakeClock(period=1 << 29))  # supervisor.ticks_ms() wraps at 2**29
    t.connect()
    (hello,) = replies(t.ask("HELLO"))
    words = dict(w.split("=") for w in hello.split()[1:])
    assert words["period"] == str(1 << 29)
    assert int(words["ticks"]) < 1 << 29
    start = t.clock.now
    g = play(t, [0, 40], winner=0)  # every entry commits after its idle time, across the wrap
    assert g.scores() == [121, 40]
    assert t.clock.now < start
    t.tap("OK")
    (rec,) = log_records(t)
    assert rec["scores"] == [121, 40]
    assert 0 <= rec["ticks"] < 1 << 29


def finished_games(t, n):
    for _ in range(n):
        play(t, [0, 100], winner=0, chunk=29)
        t.tap("OK")


def test_list_records_since_a_sequence_number_and_ack():
    t = Table()
    t.connect()
    finished_games(t, 2)
    got = replies(t.ask("LIST 0"))
    assert [r.split()[0] for r in got] == ["REC", "REC", "END"]
    assert got[-1] == "END 2 2"
    rec = json.loads(got[0].split(" ", 2)[2])
    assert rec["game_no"] == 1
    assert rec["winner"] == 0
    assert rec["scores"] == [121, 100]
    assert replies(t.ask("LIST 1"))[-1] == "END 1 2"
    assert replies(t.ask("LIST 2")) == ["END 0 2"]
    assert replies(t.ask("ACK 2")) == ["OK ACK 2"]
    assert HostApi(t.app).hello_fields()[5] == 2
    assert t.state()["acked"] == 2
    assert replies(t.ask("ACK 9")) == ["ERC [1304, [9, 2]]", "ERR args no record 9 yet (last is 2)"]
    assert replies(t.ask("LIST 0 %d" % (LIST_LIMIT + 1)))[-1].startswith("ERR args")


def test_resend_moves_the_sent_cursor_back_to_the_start_and_keeps_it_through_a_power_cut():
    t = Table()
    t.connect()
    finished_games(t, 2)
    assert replies(t.ask("ACK 2")) == ["OK ACK 2"]
    assert replies(t.ask("RESEND")) == ["OK RESEND 0"]
    assert HostApi(t.app).hello_fields()[5] == 0
    assert t.state()["acked"] == 0
    assert replies(t.ask("LIST 0"))[-1] == "END 2 2"  # the log is as it was
    assert replies(t.ask("ACK 1")) == ["OK ACK 1"]  # and the cursor moves on from 0


def test_watch_streams_live_events():
    t = Table()
    t.connect()
    assert replies(t.ask("WATCH on")) == ["OK WATCH on"]
    t.enter(1, 6)
    events = [json.loads(r[3:]) for r in replies(t.stream.lines())]
    assert events[-1]["what"] == "add"
    assert events[-1]["scores"] == [0, 6]
    assert replies(t.ask("WATCH off")) == ["OK WATCH off"]
    t.enter(1, 2)
    assert t.stream.lines() == []


def test_time_and_state():
    t = Table()
    t.connect()
    assert replies(t.ask("TIME 1795000000")) == ["OK TIME 1795000000"]
    (state,) = replies(t.ask("STATE"))
    assert json.loads(state[6:]) == json.loads(json.dumps(t.state()))
    finished_games(t, 1)
    rec = json.loads(replies(t.ask("LIST 0"))[0].split(" ", 2)[2])
    assert rec["wall"][0] == 1795000000
    assert rec["boot"] == 1


def test_names_for_the_tracks_are_kept_through_power_cuts_and_new_matches_and_go_in_every_record():
    t = Table()
    t.connect()
    finished_games(t, 1)  # a board never given names records "Track N"
    names = ["José María", "陈 & Zoë 🂡"]
    assert replies(t.ask("NAMES " + json.dumps(names))) == ["OK NAMES " + json.dumps(names)]
    again = Table(flash=t.flash.restarted())  # a power cut: the names stay
    assert again.state()["names"] == names
    again.connect()
    finished_games(again, 2)  # the second game starts a new match (best of one): the names stay
    recs = [json.loads(r.split(" ", 2)[2]) for r in replies(again.ask("LIST 0"))[:-1]]
    assert [r["names"] for r in recs] == [["Track 1", "Track 2"], names, names]
    assert recs[2]["match"] == recs[1]["match"] + 1


def test_bad_names_get_an_error_and_change_nothing():
    t = Table()
    t.connect()
    assert replies(t.ask('NAMES ["Ann", "Bob"]')) == ['OK NAMES ["Ann", "Bob"]']
    for bad, why in (
        ('["Ann"]', "2 names"),
        ('["Ann", "Bob", "Cy"]', "2 names"),
        ('"Ann"', "2 names"),
        ('["Ann", "%s"]' % ("x" * 25), "too long"),
        ('["Ann", "B\\u001bb"]', "control"),
        ('["Ann", ""]', "empty"),
        ('["Ann", 5]', "text"),
        ("[Ann, Bob]", "usage"),
        ("", "usage"),
    ):
        reply = replies(t.ask("NAMES " + bad))[-1]
        assert reply.startswith("ERR args") and why in reply, (bad, reply)
        if sys.implementation.name == "micropython":  # the words are loaded to say one, and dropped
            assert "cribcore.messages" not in sys.modules
    assert replies(t.ask('NAMES ["Ann", "B\\u001bb"]')) == [  # the refusal as data first (protocol 5), nested
        'ERC [502, [2, {"e": [507, [27]]}]]',
        "ERR args name 2: no control characters (U+001B)",
    ]
    assert t.state()["names"] == ["Ann", "Bob"]
    longest = json.dumps(["字" * 24, "字" * 24])  # the longest names there are, in a three-byte script
    assert replies(t.ask("NAMES " + longest))[0].startswith("OK NAMES")


def test_bad_lines_get_an_error_and_the_board_goes_on():
    t = Table()
    t.connect()
    assert replies(t.ask("", raw=b"HELLO\n"))[0].startswith("ERR crc")  # not sealed
    assert replies(t.ask("", raw=seal("HELLO")[:-4] + b"00\n"))[0].startswith("ERR crc")
    assert replies(t.ask("", raw=b"\xff\xfe\x00junk\n"))[0].startswith("ERR crc")
    assert replies(t.ask("", raw=b"x" * (MAX_LINE + 50) + b"\n"))[0].startswith("ERR too-long")
    assert replies(t.ask("FROB 1")) == ["ERR unknown no command FROB"]  # no ERC: no rule refused it
    assert replies(t.ask("LIST x"))[0].startswith("ERR args")
    assert replies(t.ask("", raw=b"\r\n\n")) == []  # blank lines are only framing
    assert replies(t.ask("", raw=seal("HELLO")[:-1] + b"\r\n"))[0].startswith("HELLO")


def test_a_host_that_vanishes_mid_reply_does_not_stop_the_board():
    t = Table()
    t.connect()
    t.stream.broken = True
    t.ask("HELLO")
    t.enter(0, 4)
    assert t.app.match.game.scores() == [4, 0]
    t.stream.broken = False
    assert replies(t.ask("HELLO"))[0].startswith("HELLO")


def no_ctrl_c(data, last):
    """data with every Ctrl-C that would stop the program (one between lines
    or after a CR: mpremote's way in) made a Ctrl-D; Ctrl-C inside a line
    stays, as noise. Also the last byte, for the next call."""
    out = bytearray(data)
    for i in range(len(out)):
        before = out[i - 1] if i else last
        if out[i] == 3 and before in (10, 13):
            out[i] = 4
    return bytes(out), out[-1] if out else last


def test_fuzz_thousands_of_random_and_mutated_lines():
    t = Table()
    t.connect()
    t.enter(0, 7)
    before = json.dumps(t.state())
    rng = Lcg(31)
    good = [seal(c) for c in ("HELLO", "LIST 0", "STATE", "WATCH off", "ACK 0", "LIST 0 3")]
    last = 10
    for n in range(3000):
        kind = rng.below(4)
        if kind == 0:  # random bytes, sometimes long
            line = bytes([rng.below(256) for _ in range(rng.below(400))])
        elif kind == 1:  # a good line with a byte changed
            line = bytearray(good[rng.below(len(good))])
            line[rng.below(len(line) - 1)] = rng.below(256)
            line = bytes(line)
        elif kind == 2:  # a good line cut short, or two run together
            g = good[rng.below(len(good))]
            line = g[: rng.below(len(g))] + good[rng.below(len(good))]
        else:  # sealed nonsense: passes the check, fails the parse
            line = seal("".join([chr(32 + rng.below(95)) for _ in range(rng.below(40))]))
        line, last = no_ctrl_c(line, last)
        t.stream.feed(line)
        t.app.step()
        if n % 50 == 0:
            t.run(100)
            replies(t.stream.lines())
    t.stream.feed(b"\n")
    t.run(2000)
    replies(t.stream.lines())
    assert t.app.link.errors > 1000
    assert json.dumps(t.state()) == before
    assert replies(t.ask("HELLO"))[0].startswith("HELLO ")
    t.enter(0, 3)
    assert t.app.match.game.scores() == [10, 0]


def test_a_stray_ctrl_c_inside_a_line_is_noise_but_between_lines_or_after_cr_it_stops_the_program():
    t = Table()
    stream = t.connect()
    line = seal("HELLO")
    stream.feed(line[:3] + b"\x03" + line[3:])  # noise on the wire, mid-line
    for _ in range(10):
        t.run(10)  # no KeyboardInterrupt: the board goes on
    assert [r.split()[0:2] for r in replies(stream.lines())] == [["ERR", "crc"]]  # the host sends it again
    for stop in (b"\x03", b"\r\x03", line[:4] + b"\r\x03"):  # alone; as mpremote sends it; after a torn line
        stream.feed(stop)
        try:
            t.run(50)
        except KeyboardInterrupt:
            pass
        else:
            raise AssertionError("Ctrl-C did not stop the program: %r" % stop)
    stream.feed(seal("HELLO"))
    t.run(50)
    assert replies(stream.lines())[0].startswith("HELLO board=")  # the link starts clean afterwards


def test_the_clubs_wifi_and_server_are_kept_and_never_sent_back():
    import json as _json

    t = Table()
    t.connect()
    wifi = {"ssid": "ClubNet", "password": "s3cret pass"}
    assert replies(t.ask("CONF wifi " + _json.dumps(wifi))) == ["OK CONF wifi"]
    club = {"server": "http://10.0.0.2:8121/", "key": "ab" * 16}
    assert replies(t.ask("CONF club " + _json.dumps(club))) == ["OK CONF club"]
    files = t.app.store.files
    for name, data in (("wifi.json", wifi), ("club.json", club)):
        f = files.open(name, "rb")
        assert _json.loads(f.read().decode()) == data
        f.close()
    for bad in (
        'wifi {"ssid": ""}',
        'club {"server": "ftp://x/", "key": "%s"}' % ("ab" * 16),
        "club",
        "mail {}",
        'club {"server": "http://club.local:8121/", "key": "%s"}' % ("ab" * 16),  # a name: looked up, stalls
        'club {"server": "http://10.0.0.2/", "key": "%s"}' % ("ab" * 16),  # no port
        'club {"server": "http://10.0.0.2:8121/x", "key": "%s"}' % ("ab" * 16),  # a path the board ignores
        'club {"server": "http://10.0.0.2:8121/", "key": "XYZ"}',
        "wifi [1]",
        'wifi {"ssid": "ClubNet", "password": "short"}',
        'wifi {"ssid": "ClubNet", "password": 12345678}',
        'wifi {"ssid": "ClubNet", "password": "%s"}' % ("g" * 64),
        'wifi {"ssid": "%s", "password": ""}' % ("x" * 33),
    ):
        reply = replies(t.ask("CONF " + bad))[-1]
        assert reply.startswith("ERR args"), (bad, reply)
    said = " ".join(replies(t.ask("STATE")) + replies(t.ask("HELLO")))
    assert "s3cret" not in said
    assert "ab" * 16 not in said


def test_the_clubs_seat_with_a_length_starts_a_match_of_that_length_shown_and_recorded_game_by_game():
    """A playoff table: the club's signed answer names the pair and the match's length. The board starts a
    best-of-3 match track 1 deals, keeps it as the same answer comes again, lights each game won on the
    game-point LEDs, records each game of the match, and ends the match at two wins; a length no match has
    is left."""
    t = Table()
    t.connect()
    api = HostApi(t.app)
    api.seat(["Ann", "Bob"], 3)
    m = t.app.match
    assert (m.best_of, m.need, t.state()["names"]) == (3, 2, ["Ann", "Bob"])
    play(t, [0, 100], winner=0, chunk=29)
    t.tap("OK")
    api.seat(["Ann", "Bob"], 3)  # the club says it again with every answer: the match goes on
    assert t.app.match is m
    t.run(300)
    lit = [t.rgb(i) != (0, 0, 0) for i in t.layout.points[0]]
    assert lit[:2] == [True, False]  # one game won: one game-point LED
    api.seat(["Ann", "Bob"], 4)  # not a match's length: left
    assert t.app.match is m
    play(t, [0, 100], winner=0, chunk=29)
    t.tap("OK")
    recs = [json.loads(r.split(" ", 2)[2]) for r in replies(t.ask("LIST 0"))[:-1]]
    assert [(r["best_of"], r["game_no"], r["names"]) for r in recs] == [(3, 1, ["Ann", "Bob"]), (3, 2, ["Ann", "Bob"])]
    assert recs[1]["match_result"]["winner"] == 0  # two of three: the match is over
    assert t.app.match is not m  # and a new one of the same length waits for the next pair
    api.seat(["Cy", "Di"], 5)  # the next round's pair and length, before its first entry
    assert (t.app.match.best_of, t.state()["names"]) == (5, ["Cy", "Di"])


def test_a_seat_never_renames_a_game_under_way_and_takes_the_board_between_games():
    """A board unplugged mid-game and seated with the next pair: its game with points entered keeps its
    players and its match its length (the host reads back the names kept and says so); entries all undone,
    or between two games (what was won is logged already), the seat starts the new pair's match of its
    length, track 1 dealing."""
    t = Table()
    t.connect()
    api = HostApi(t.app)
    api.seat(["Ed", "Bo"], 3)
    t.enter(0, 5)  # 5-0 in game 1
    m = t.app.match
    api.seat(["Ed", "Cy"], 5)
    assert (t.app.match is m, m.best_of, t.state()["names"]) == (True, 3, ["Ed", "Bo"])
    api.seat(["Ed", "Bo"], 5)  # the same pair, another length: the game under way keeps its match
    assert (t.app.match is m, m.best_of) == (True, 3)
    t.tap("UNDO")  # the entry undone: nothing on the board is the old pair's, the seat is taken
    api.seat(["Al", "Di"], 3)
    assert (t.app.match is not m, t.state()["names"]) == (True, ["Al", "Di"])
    api.seat(["Ed", "Bo"], 3)
    m = t.app.match
    play(t, [100, 0], winner=0, chunk=29)
    t.tap("OK")
    assert (t.app.match is m, len(m.closed)) == (True, 1)  # game 2 next, nothing entered in it
    logged = len(replies(t.ask("LIST 0"))) - 1
    api.seat(["Ed", "Cy"], 5)
    assert (t.app.match.best_of, t.state()["names"], t.app.match.closed) == (5, ["Ed", "Cy"], [])
    assert len(replies(t.ask("LIST 0"))) - 1 == logged == 1  # Ed's game against Bo stays logged, as it was


def test_a_nights_seat_waits_only_for_the_game_under_way():
    """A night's seat (no length) is one game: taken between two games of the board's own match (a night's
    board left at best of 3), refused while the game on the board has points entered."""
    t = Table()
    t.connect()
    api = HostApi(t.app)
    api.seat(["Ann", "Bob"], 3)
    play(t, [100, 0], winner=0, chunk=29)
    t.tap("OK")
    assert len(t.app.match.closed) == 1  # the board's own match goes on
    t.enter(1, 7)
    api.seat(["Cy", "Di"], None)
    assert t.state()["names"] == ["Ann", "Bob"]  # the game under way keeps its players
    t.tap("UNDO")
    api.seat(["Cy", "Di"], None)
    assert (t.state()["names"], t.app.match.closed, t.app.match.game.events) == (["Cy", "Di"], [], [])
