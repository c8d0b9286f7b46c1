# Compiled firmware modules, kept between flashes: `cribboard flash`
# compiles only what is not here yet. An entry is named by what decides its
# bytes: the module's source, the name its tracebacks give it, mpy-cross's
# flags and mpy-cross's own version; so a changed module, or another
# mpy-cross, is compiled again and nothing else is. Each entry ends with the
# SHA-256 of its bytes: one cut off mid-write or damaged is compiled again,
# never copied to a board. Written to a temporary name and renamed into
# place, so two flashes at once share the folder safely.
import functools
import hashlib
import os
import subprocess
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import platformdirs

FLAGS = ("-O1",)  # what every module is compiled with (-O1: no asserts on the board)
_DIGEST = 32  # the SHA-256 at an entry's end
TOOL_WAIT_S = 600  # the most mpy-cross may take to say its version


def folder() -> Path:
    """The user's cache folder for compiled modules (platformdirs)."""
    return Path(platformdirs.user_cache_dir("cribboard")) / "mpy"


@functools.lru_cache(maxsize=8)
def version(tool: str) -> str:
    """mpy-cross's own words for its version: part of every key (asked once
    a process: a flash checks the board's .mpy version against it too). The
    wait is a net for a tool that hangs, not a guess at its speed: on a
    starved machine even this answer took over a minute."""
    return subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=TOOL_WAIT_S).stdout.strip()


def key(source: bytes, name: str, tool_version: str) -> str:
    h = hashlib.sha256()
    for part in (source, name.encode(), " ".join(FLAGS).encode(), tool_version.encode()):
        h.update(hashlib.sha256(part).digest())  # each part hashed on its own: no two splits read alike
    return h.hexdigest()


def _read(path: Path) -> bytes | None:
    """An entry's bytes, if it is whole; None if missing, cut off or damaged."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    body, digest = data[:-_DIGEST], data[-_DIGEST:]
    if len(data) <= _DIGEST or hashlib.sha256(body).digest() != digest:
        return None
    return body


def _write(where: Path, path: Path, body: bytes) -> None:
    where.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=where, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(body + hashlib.sha256(body).digest())
        os.replace(tmp, path)  # atomic: a reader sees the old entry, the new one, or none
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def compile_all(
    tool: str,
    modules: Iterable[tuple[str, bytes]],
    compile_one: Callable[[str, str, bytes], bytes],
    where: Path | None = None,
) -> tuple[list[bytes], int]:
    """The compiled bytes of each (name, source), in order, and how many
    had to be compiled. compile_one(tool, name, source) -> bytes compiles
    one (mpy-cross runs a file a process: the misses run side by side).
    A cache that cannot be written is no error: the flash goes on."""
    where = where or folder()
    tool_version = version(tool)
    wanted = list(modules)
    paths = [where / (key(src, name, tool_version) + ".mpy") for name, src in wanted]
    found: list[bytes | None] = [_read(p) for p in paths]
    missing = [k for k, body in enumerate(found) if body is None]
    if missing:
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            made = list(pool.map(lambda k: compile_one(tool, wanted[k][0], wanted[k][1]), missing))
        for k, body in zip(missing, made):
            found[k] = body
            try:
                _write(where, paths[k], body)
            except OSError:
                pass
    return [b for b in found if b is not None], len(missing)
