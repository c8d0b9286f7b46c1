# The club's signatures (cribcore.signing): HMAC-SHA256 as RFC 4231 defines
# it, on every interpreter the board code runs on, and bound to the method,
# path, board, counter and body it signs.
from binascii import unhexlify

from cribcore.signing import canonical, hmac_sha256, pads, signature

# RFC 4231, test cases 1, 2 and 6 (a key longer than the block).
VECTORS = [
    (b"\x0b" * 20, b"Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe", b"what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    (
        b"\xaa" * 131,
        b"Test Using Larger Than Block-Size Key - Hash Key First",
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    ),
]


def test_hmac_sha256_is_rfc_4231s():
    for key, msg, want in VECTORS:
        assert hmac_sha256(key, msg) == unhexlify(want)
        assert hmac_sha256(pads(key), msg[:5], msg[5:]) == unhexlify(want)  # padded once; in parts


def test_a_signature_covers_every_part_of_the_request():
    key = b"k" * 16
    base = ("POST", "/board/v1/games", "e6614104", "3.17", b'{"records": []}')
    sig = signature(key, *base)
    assert len(sig) == 64
    assert sig == signature(key, *base)
    assert canonical(*base[:4]) == b"POST\n/board/v1/games\ne6614104\n3.17\n"
    assert hmac_sha256(key, canonical(*base[:4]) + base[4]) == unhexlify(sig)  # the body follows
    assert signature(pads(key), *base) == sig
    for k in range(5):  # any one part changed: another signature
        changed = list(base)
        changed[k] = changed[k] + (b" " if k == 4 else "x")
        assert signature(key, *changed) != sig
    assert signature(b"K" * 16, *base) != sig
