# Players' codes (issue 70): what a code is, and the director's listing that
# gives them, gives one anew and voids the old.
import io
import json
import struct
import zlib

import PIL.Image
import segno
from clirun import cli

from cribboard import store
from cribboard.event import codes


def test_a_code_is_ten_symbols_of_crockfords_base_32_read_back_however_typed():
    made = {codes.make() for _ in range(2000)}
    assert len(made) == 2000  # (50 bits: a repeat here would be a broken source of secrets)
    assert all(len(c) == codes.LENGTH and set(c) <= set(codes.SYMBOLS) for c in made)
    assert len(set("".join(made))) == 32  # every symbol used
    code = "0K1QM7XD9R"
    assert codes.shown(code) == "0K1QM-7XD9R"
    for typed in ("0K1QM-7XD9R", "ok1qm 7xd9r", "OKIQM7XD9R", "0kLqm-7xd9r"):
        assert codes.read(typed) == code, typed
    for wrong in ("", "0K1QM", "0K1QM-7XD9RR", "0K1QM-7XD9U", "0K1QM/7XD9R"):
        assert codes.read(wrong) is None, wrong


def test_the_director_lists_every_players_code_and_a_code_given_anew_voids_the_old(tmp_path):
    db = str(tmp_path / "club.db")
    assert cli("night", "new", "Ann", "Bob", "Cy", "Di", "--db", db).returncode == 0
    first = json.loads(cli("night", "codes", "--db", db, "--json").stdout)
    assert [r["player"] for r in first] == ["Ann", "Bob", "Cy", "Di"]
    again = json.loads(cli("night", "codes", "--db", db, "--json").stdout)
    assert again == first  # given once, listed after
    done = cli("night", "codes", "--new", "Bob", "--db", db, "--json")
    assert "Bob has a new code" in done.stderr
    after = {r["player"]: r["code"] for r in json.loads(done.stdout)}
    before = {r["player"]: r["code"] for r in first}
    assert after["Bob"] != before["Bob"] and {k: v for k, v in after.items() if k != "Bob"} == {
        k: v for k, v in before.items() if k != "Bob"
    }
    conn = store.connect(db)
    try:
        assert store.codes.holder(conn, codes.read(before["Bob"])) is None  # the old one opens nothing
        assert store.codes.holder(conn, codes.read(after["Bob"])) == (1, 2)
    finally:
        conn.close()
    refused = cli("night", "codes", "--new", "Zed", "--db", db)
    assert refused.returncode == 2 and "Zed is not in night 1" in refused.stderr


def test_a_printed_card_says_where_the_players_page_is_with_their_code(tmp_path):
    from pypdf import PdfReader

    db = str(tmp_path / "club.db")
    assert cli("night", "new", "Ann", "Bob", "Cy", "Di", "--db", db).returncode == 0
    wrong = cli("night", "print", str(tmp_path / "paper"), "--server", "club.local", "--db", db)
    assert wrong.returncode == 2 and "http://HOST:PORT/" in wrong.stderr  # an address a phone could not open
    assert not (tmp_path / "paper").exists()
    done = cli("night", "print", str(tmp_path / "paper"), "--server", "http://club.local:8120", "--db", db)
    assert done.returncode == 0, done.stderr
    held = {r["player"]: r["code"] for r in json.loads(cli("night", "codes", "--db", db, "--json").stdout)}
    for card in sorted((tmp_path / "paper").glob("card-*.pdf")):
        page = PdfReader(card).pages[0]
        text = page.extract_text()
        player = next(p for p in held if "Scorecard: %s\n" % p in text)
        link = "http://club.local:8120/me#%s" % held[player]
        assert "Your page: %s" % link in text, text
        assert printed_qr(page) == [list(row) for row in segno.make(link, error="m").matrix], player
    (handout,) = PdfReader(tmp_path / "paper" / "codes.pdf").pages  # four slips to cut out: one page
    text = handout.extract_text()
    for player, code in held.items():
        assert "%s\nYour code: %s" % (player, code) in text, text
        assert "http://club.local:8120/me#%s" % code in text
    assert len(handout["/Resources"]["/XObject"]) == 4, "a QR code a slip"


def printed_qr(page):
    """The QR code's modules on a card's page, dark 1: its one image as matplotlib writes it (a module a pixel,
    bottom row first, a 1-bit palette of white then black, Flate with PNG's row filters), read by Pillow as the
    PNG its stream is, the four modules of quiet zone taken off."""
    (image,) = [x.get_object() for x in page["/Resources"]["/XObject"].values()]
    assert image["/ColorSpace"][3] == b"\xff\xff\xff\x00\x00\x00" and image["/DecodeParms"]["/Predictor"] == 10
    width, height = image["/Width"], image["/Height"]

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
    # The stream as stored (zlib of PNG-filtered rows): pypdf's own decoding of 1-bit rows with PNG filters
    # does not give PNG's rows back (pypdf 7.1), Pillow's does.
    png += chunk(b"IDAT", image._data) + chunk(b"IEND", b"")
    pixels = PIL.Image.open(io.BytesIO(png))
    rows = [[int(pixels.getpixel((x, y)) != 0) for x in range(width)] for y in reversed(range(height))]
    assert all(not any(r) for r in rows[:4] + rows[-4:]), "a light quiet zone"
    return [r[4:-4] for r in rows[4:-4]]


def test_a_tournaments_codes_are_its_qualifyings(tmp_path):
    db = str(tmp_path / "club.db")
    assert cli("tournament", "new", *["P%d" % i for i in range(8)], "--db", db).returncode == 0
    entrants = json.loads(cli("tournament", "codes", "--db", db, "--json").stdout)
    assert [r["player"] for r in entrants] == ["P%d" % i for i in range(8)]
    assert json.loads(cli("night", "codes", "--db", db, "--json").stdout) == entrants


def test_the_page_knows_whose_code_it_is_and_limits_guessing(tmp_path):
    import asgi

    from cribboard.club.app import ClubApp
    from cribboard.club.front import Front
    from cribboard.club.protocol import Club
    from cribboard.seating import Seating

    db = str(tmp_path / "club.db")
    assert cli("night", "new", "Ann", "Bob", "Cy", "Ann", "--db", db).returncode == 0
    held = json.loads(cli("night", "codes", "--db", db, "--json").stdout)
    voided = held[1]["code"]
    cli("night", "codes", "--new", "Bob", "--db", db)
    club = Club(db, Seating(), clock=lambda: 0.0)  # the clock stands still: no allowance comes back
    front = Front(ClubApp(club), None, 2, 1)

    def ask(code, peer="10.0.0.9"):
        scope = {
            "type": "http",
            "method": "GET",
            "path": "/api/me",
            "query_string": ("code=" + code).encode(),
            "headers": [(b"host", b"127.0.0.1:0")],
            "client": (peer, 50000),
        }
        status, _headers, body = asgi.call(front, scope)
        return status, json.loads(body)

    try:
        assert ask(held[3]["code"]) == (200, {"player": "Ann #4", "night": 1})  # (a shared name, numbered)
        assert ask(held[0]["code"].lower().replace("-", " ")) == (200, {"player": "Ann #1", "night": 1})
        assert ask(voided)[0] == 404  # given anew: the old one opens nothing
        assert ask("not a code")[0] == 400
        for k in range(18):
            assert ask("ZZZZZ-ZZZ%02d" % k)[0] in (400, 404)
        assert ask(held[2]["code"])[0] == 429, "twenty wrong codes: the address is told to wait, a right code too"
        assert ask(held[2]["code"], peer="10.0.0.10") == (200, {"player": "Cy", "night": 1})  # another phone is not
    finally:
        club.close()


def test_a_code_guessed_at_the_limits_rate_finds_no_one_in_a_night():
    """At the allowance's rate an address has its burst and one guess every 30 s: over a twelve-hour night,
    among 1,000 codes in use, the chance that any guess opens a page is below one in a million (a room of 500
    phones guessing together, below one in a thousand)."""
    from cribboard.night import mine

    guesses = mine.WRONG_BURST + 12 * 3600 * mine.WRONG_PER_S
    space = len(codes.SYMBOLS) ** codes.LENGTH
    assert guesses * 1000 / space < 1e-6
    assert 500 * guesses * 1000 / space < 1e-3
