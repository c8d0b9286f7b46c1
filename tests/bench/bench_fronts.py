# Two event-loop servers weighed for the club's server (issue 67,
# docs/decisions.md): the same small ASGI app (the request's body read, a
# 2-byte answer) under uvicorn with httptools, as `serve` runs it, and under
# hypercorn (not a dependency: pip install hypercorn first). For each: the
# server's CPU a request over 3,000 requests, 20 at a time, each on a
# connection of its own; then with 2,000 idle connections held open, the
# memory each costs and the CPU a request again. Prints JSON.
#   python tests/bench/bench_fronts.py
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
APP = """
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})
"""
REQUEST = (
    b"POST /board/v1/live HTTP/1.0\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n"
    + (b"x" * 300)
)


def cpu_s(pid):
    fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid):
    for line in Path("/proc/%d/status" % pid).read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(which, folder, port):
    command = {
        "uvicorn": ["-m", "uvicorn", "app:app", "--http", "httptools", "--port", str(port), "--log-level", "warning"],
        "hypercorn": ["-m", "hypercorn", "app:app", "-b", "127.0.0.1:%d" % port, "--keep-alive", "60"],
    }[which]
    proc = subprocess.Popen([sys.executable, *command], cwd=folder, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    return proc


def busiest(proc):
    """The process that serves: hypercorn's is a worker it spawns, beside its resource tracker."""
    children = Path("/proc/%d/task/%d/children" % (proc.pid, proc.pid)).read_text().split()
    return max([proc.pid, *map(int, children)], key=cpu_s)


async def requests(port, n):
    async def one():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(REQUEST)
        await writer.drain()
        await reader.read()
        writer.close()

    for _ in range(0, n, 20):
        await asyncio.gather(*(one() for _ in range(20)))


async def figures(proc, port):
    await requests(port, 200)  # (warm)
    pid = busiest(proc)
    cpu0 = cpu_s(pid)
    await requests(port, 3000)
    busy = (cpu_s(pid) - cpu0) / 3000
    rss0 = rss_kb(pid)
    idle = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2000)]
    await asyncio.sleep(1)
    per_idle = (rss_kb(pid) - rss0) / len(idle)
    cpu0 = cpu_s(pid)
    await requests(port, 1000)
    beside = (cpu_s(pid) - cpu0) / 1000
    for _reader, writer in idle:
        writer.close()
    return {
        "cpu_ms_a_request": round(1000 * busy, 3),
        "kb_an_idle_connection": round(per_idle, 1),
        "cpu_ms_a_request_beside_2000_idle": round(1000 * beside, 3),
    }


def main():
    import resource
    import tempfile

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "app.py").write_text(APP)
        for which in ("uvicorn", "hypercorn"):
            port = free_port()
            proc = serve(which, folder, port)
            try:
                out[which] = asyncio.run(figures(proc, port))
            finally:
                proc.terminate()
                proc.wait(30)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
