# The repository keeps nothing built from others' sources: every file git
# tracks is checked by name and by its first bytes (tests/foreign.py). The
# sdist and the wheel are checked the same way in tests/dist.
import subprocess
from pathlib import Path

import pytest
from foreign import HEAD, foreign, why_foreign

ROOT = Path(__file__).resolve().parents[1]


def tracked():
    try:
        done = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the sdist's own list is checked in tests/dist")
    for name in done.stdout.decode().split("\0"):
        path = ROOT / name
        if name and path.is_file() and not path.is_symlink():
            with open(path, "rb") as f:
                yield name, f.read(HEAD)


def test_no_tracked_file_is_a_firmware_image_a_rom_or_a_compiled_binary():
    files = list(tracked())
    assert len(files) > 100  # the listing is the repository's, not an empty one
    assert foreign(files) == []


def test_the_check_knows_an_image_by_its_name_and_by_its_magic_number():
    uf2_block = b"UF2\nWQ]\x9e" + bytes(504)
    assert why_foreign("micropython-v1.28.0-RPI_PICO.uf2", b"")
    assert why_foreign("tests/rp2040/rp2040-bootrom-b1.bin", b"\x00\x1f\x04\x20")
    assert why_foreign("firmware.ELF", b"")
    assert why_foreign("board.hex", b":10000000")
    assert why_foreign("innocent.txt", uf2_block[:HEAD]) == "innocent.txt: a UF2 image"
    assert why_foreign("tool", b"\x7fELF\x02\x01\x01\x00") == "tool: an ELF binary"
    assert why_foreign("README.md", b"# Cribbo") is None
    assert why_foreign("docs/board.png", b"\x89PNG\r\n\x1a\n") is None
