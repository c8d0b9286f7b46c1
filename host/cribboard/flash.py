# Deploying the firmware: compile with mpy-cross, copy with mpremote, check
# every file's SHA-256 on the board, reset. A manifest (deploy.json) is
# written "incomplete" first and "complete" last, so a deploy cut short is
# reported by the board at boot and by the next flash.
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from cribapp import FIRMWARE_VERSION
from cribboard import paths

MANIFEST = "deploy.json"
PACKAGES = ("cribcore", "cribapp")


class FlashError(Exception):
    pass


def _tool(name):
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if not found:
        raise FlashError("%s is not installed (pip install %s)" % (name, name))
    return found


def build(out, board="pico", layout=None):
    """Compile the firmware into folder out; returns [(local, remote)]."""
    src = paths.firmware()
    board_path = paths.board_file(board)
    layout_name = layout or json.loads(board_path.read_text()).get("layout", "2-track")
    files = [(src / "main.py", "main.py")]
    mpy_cross = _tool("mpy-cross")
    for pkg in PACKAGES:
        for py in sorted((src / "lib" / pkg).glob("*.py")):
            target = out / "lib" / pkg / (py.stem + ".mpy")
            target.parent.mkdir(parents=True, exist_ok=True)
            done = subprocess.run([mpy_cross, "-O1", "-o", str(target), str(py)], capture_output=True, text=True)
            if done.returncode:
                raise FlashError("mpy-cross failed on %s: %s" % (py.name, done.stderr.strip()))
            files.append((target, "lib/%s/%s.mpy" % (pkg, py.stem)))
    files.append((board_path, "board.json"))
    files.append((paths.layout_file(layout_name), "layout.json"))
    return files


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class Deployer:
    def __init__(self, port):
        self.port = port
        self.mpremote = [sys.executable, "-m", "mpremote", "connect", port]

    def run(self, *args, check=True):
        done = subprocess.run(self.mpremote + list(args), capture_output=True, text=True, timeout=120)
        if check and done.returncode:
            raise FlashError("mpremote %s failed: %s" % (args[0], (done.stderr or done.stdout).strip()[-300:]))
        return done

    def exec(self, code):
        return self.run("exec", code).stdout

    def previous(self):
        """The manifest of the last deploy, or None."""
        out = self.exec("try:\n print(open(%r).read())\nexcept OSError:\n print('{}')" % MANIFEST)
        try:
            return json.loads(out.strip() or "{}") or None
        except ValueError:
            return {"state": "unreadable"}

    def write_manifest(self, data, tmp):
        path = Path(tmp) / MANIFEST
        path.write_text(json.dumps(data))
        self.run("fs", "cp", str(path), ":" + MANIFEST)

    def copy(self, files, progress):
        dirs = sorted({str(Path(remote).parent) for _, remote in files if "/" in remote})
        self.exec("import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass\n" % (["lib"] + dirs))
        # Old modules go first: a stale .py would be imported before the new .mpy.
        self.exec("import os\nfor p in %r:\n try:\n  [os.remove(p + '/' + n) for n in os.listdir(p)]\n"
                  " except OSError:\n  pass\n" % (["lib/" + p for p in PACKAGES],))
        args = []
        for local, remote in files:
            args += ["fs", "cp", str(local), ":" + remote, "+"]
        proc = subprocess.Popen(self.mpremote + args[:-1], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for line in proc.stdout:
            if line.startswith("cp "):
                progress()
        if proc.wait(300):
            raise FlashError("copying failed: %s" % proc.stderr.read().strip()[-300:])

    def hashes(self, remotes):
        code = ("import hashlib, binascii\nfor p in %r:\n try:\n  h = hashlib.sha256()\n  f = open(p, 'rb')\n"
                "  while True:\n   b = f.read(512)\n   if not b:\n    break\n   h.update(b)\n  f.close()\n"
                "  print(p, binascii.hexlify(h.digest()).decode())\n except OSError:\n  print(p, 'missing')\n"
                % (list(remotes),))
        out = {}
        for line in self.exec(code).splitlines():
            name, _, digest = line.strip().partition(" ")
            out[name] = digest
        return out

    def reset(self):
        self.run("reset", check=False)


def flash(port, board="pico", layout=None, progress=None, warn=print):
    """Deploy and verify; returns the number of files. progress(step) per file."""
    tick = progress or (lambda: None)
    with tempfile.TemporaryDirectory() as tmp:
        files = build(Path(tmp) / "build", board, layout)
        d = Deployer(port)
        last = d.previous()
        if last and last.get("state") != "complete":
            warn("the last deploy to this board did not finish (it was %s): deploying it all again"
                 % last.get("state"))
        d.write_manifest({"state": "incomplete", "version": FIRMWARE_VERSION}, tmp)
        d.copy(files, tick)
        want = {remote: sha256(local) for local, remote in files}
        got = d.hashes(want)
        bad = [r for r in want if got.get(r) != want[r]]
        if bad:
            raise FlashError("these files did not arrive intact: %s (run flash again)" % ", ".join(bad))
        d.write_manifest({"state": "complete", "version": FIRMWARE_VERSION, "files": want}, tmp)
        d.reset()
    return len(files)
