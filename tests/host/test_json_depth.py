# records.json_depth (what every report's and record's JSON is measured by
# before json.loads recurses into it) against the plain rule, byte by byte:
# brackets count outside strings, a backslash in a string escapes the next
# byte, and a string the text's end cuts off runs to the end.
from hypothesis import given, settings
from hypothesis import strategies as st

from cribboard.records import json_depth


def depth_byte_by_byte(data: bytes) -> int:
    depth = deepest = 0
    in_string = escaped = False
    for c in data:
        if in_string:
            if escaped:
                escaped = False
            elif c == 0x5C:
                escaped = True
            elif c == 0x22:
                in_string = False
        elif c == 0x22:
            in_string = True
        elif c in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif c in (0x5D, 0x7D):
            depth -= 1
    return deepest


json_bytes = st.lists(st.sampled_from(list(b'[]{}"\\\\ax:,\n') + [0xC3, 0xFF]), max_size=60).map(bytes)


@settings(max_examples=3000)
@given(json_bytes | st.binary(max_size=40))
def test_the_depth_is_the_byte_by_byte_rules(data):
    assert json_depth(data) == depth_byte_by_byte(data)


@given(st.text(max_size=40))
def test_text_is_measured_as_its_utf8(text):
    assert json_depth(text) == depth_byte_by_byte(text.encode("utf-8", "surrogatepass"))


def test_known_depths():
    assert json_depth(b'{"a": [1, {"b": "[[[{"}]}') == 3
    assert json_depth(b'["\\\\", [["x\\"]"]]]') == 3  # an escaped backslash ends; an escaped quote does not
    assert json_depth(b'[["cut off [[[[') == 2
    assert json_depth(b"[" * 5000) == 5000
