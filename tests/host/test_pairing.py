# The pairing use case on its own (cribboard.pairing), without the command
# line or a server: a board on a stand-in link, the club's store a real
# SQLite file, the server's proof made to succeed or fail each way. A
# pairing that cannot be proven leaves the store and the board as they were.
import pytest

from cribboard import pairing, store
from cribboard.club import proof
from cribboard.errors import CribboardError, UsageError

SERVER = "http://10.0.0.5:8321/"
BOARD = "e6614103e7452d2f"
LOG = "00c0ffee00c0ffee"


class Link:
    """A board that answers HELLO as paired firmware does and keeps what it is given."""

    port = "/dev/fake"
    proto = 5

    def __init__(self, acked=0):
        self.acked = acked
        self.kept = []
        self.resent = 0

    def hello(self):
        return {"board": BOARD, "proto": self.proto, "acked": self.acked, "log": LOG}

    def state(self):
        return {"state": "a board's live state"}

    def keep_config(self, kind, data):
        self.kept.append((kind, data))

    def resend(self):
        self.resent += 1
        return self.acked


@pytest.fixture
def db_url(tmp_path):
    return str(tmp_path / "club.db")


def keys(db_url):
    conn = store.connect(db_url)
    try:
        return [(b["board"], b["revoked_at"]) for b in store.club.boards(conn)], store.club.key_of(conn, BOARD)
    finally:
        conn.close()


def floor(db_url):
    """What the club keeps of the games the board sent before it was paired: its log, and the last."""
    conn = store.connect(db_url)
    try:
        row = conn.one("SELECT floor_log, floor_seq FROM club_boards WHERE board = ?", (BOARD,))
        return None if row is None else (row["floor_log"], row["floor_seq"])
    finally:
        conn.close()


def proven(monkeypatch, outcome=None):
    asked = []

    def prove(url, board, key, state):
        asked.append((url, board, key, state))
        if outcome is not None:
            raise outcome

    monkeypatch.setattr(proof, "prove", prove)
    return asked


def test_a_proven_pairing_keeps_the_key_in_the_store_and_then_on_the_board(monkeypatch, db_url):
    asked = proven(monkeypatch)
    link = Link(acked=7)
    paired = pairing.pair(link, lambda: store.connect(db_url), SERVER, None, lambda board, sent, proto: False)
    assert paired == pairing.Paired(BOARD, SERVER, rotated=False, resent=False, sent_before=7, proto=5)
    ((url, board, key, state),) = asked
    assert (url, board, state) == (SERVER, BOARD, {"state": "a board's live state"})
    assert link.kept == [("club", {"server": SERVER, "key": key})]  # the key proven is the key kept
    listed, kept = keys(db_url)
    assert listed == [(BOARD, None)]
    assert kept is not None
    assert bytes(kept["key"]) == key.encode()
    assert link.resent == 0
    assert floor(db_url) == (LOG, 7), "the games it sent before stay where they went: no heal asks for them"


def test_the_board_asked_to_send_again_does_so_only_after_it_keeps_the_new_server(monkeypatch, db_url):
    proven(monkeypatch)
    link = Link(acked=3)
    told = []
    paired = pairing.pair(link, lambda: store.connect(db_url), SERVER, None, lambda *a: told.append(a) or True)
    assert told == [(BOARD, 3, 5)]
    assert paired.resent
    assert link.resent == 1
    assert len(link.kept) == 1
    assert floor(db_url) == (LOG, 0), "its whole log is this club's now"


@pytest.mark.parametrize(
    "failure, said",
    [
        (proof.NotThere("connection refused"), "does not answer (connection refused)"),
        (proof.NotAClub("404 not here"), "is not a club's server (it answered 404 not here)"),
        (proof.OtherDatabase("not a paired board"), "keeps its boards in another database than"),
    ],
)
def test_a_pairing_the_server_does_not_prove_changes_nothing_and_says_why(monkeypatch, db_url, failure, said):
    link = Link()
    proven(monkeypatch)
    first = pairing.pair(link, lambda: store.connect(db_url), SERVER, None, lambda *a: False)
    before = keys(db_url)
    proven(monkeypatch, failure)
    with pytest.raises(CribboardError, match="The board is as it was") as e:
        pairing.pair(link, lambda: store.connect(db_url), SERVER, None, lambda *a: False)
    assert said in str(e.value)
    assert keys(db_url) == before  # the first pairing's key, still the board's in the store...
    assert len(link.kept) == 1  # ...and the board given nothing new
    assert bytes(before[1]["key"]) == link.kept[0][1]["key"].encode()  # the one the board keeps
    assert first.board == BOARD


def test_a_rotation_is_for_the_board_on_the_port_only_and_for_a_paired_board_only(monkeypatch, db_url):
    proven(monkeypatch)
    with pytest.raises(UsageError, match="is e6614103e7452d2f, not feedfacefeedface: nothing was changed"):
        pairing.pair(Link(), lambda: store.connect(db_url), SERVER, "feedfacefeedface", lambda *a: False)
    with pytest.raises(UsageError, match="is not paired, or its key was revoked"):
        pairing.pair(Link(), lambda: store.connect(db_url), SERVER, BOARD, lambda *a: False)
    assert keys(db_url)[0] == []
    pairing.pair(Link(), lambda: store.connect(db_url), SERVER, None, lambda *a: False)
    link = Link(acked=9)
    rotated = pairing.pair(link, lambda: store.connect(db_url), SERVER, BOARD, lambda *a: False)
    assert rotated.rotated
    assert rotated.sent_before == 0  # a new key, not a new server: nothing to send again
    assert bytes(keys(db_url)[1]["key"]) == link.kept[0][1]["key"].encode()


def test_a_server_url_is_what_the_board_keeps_or_a_usage_error():
    assert pairing.server_checked("http://10.0.0.5:8321") == SERVER
    for wrong in ("https://10.0.0.5:8321/", "http://club.local:8321/", "http://10.0.0.5/", "10.0.0.5:8321"):
        with pytest.raises(UsageError, match="--server is the club's server"):
            pairing.server_checked(wrong)
