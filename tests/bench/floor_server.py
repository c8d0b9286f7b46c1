# The floor under the club's server (issue 56): the least a server of this
# design must do for a board's live report, on the same HTTP server
# (cribboard.club.server.ClubServer, uvicorn as `serve` sets it up, the
# work on a thread as the front does it) and the same database: read the body, check the board's HMAC (the same
# signing as the board's), parse the JSON, keep the state in the same row
# (one statement, autocommitted), sign the answer. Nothing else: no counter,
# no allowance, no page, no log. bench_clubserver.py runs the boards
# against it in the same run as against `serve`, and says our CPU per
# request as a ratio to this one's.
#   python tests/bench/floor_server.py DB_URL   (prints its URL, then serves until SIGTERM)
import asyncio
import hmac
import json
import signal
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[2] / "host"))
sys.path.insert(1, str(HERE.parents[2] / "firmware" / "lib"))

from psycopg_pool import ConnectionPool  # noqa: E402

from cribboard.club.server import ClubServer  # noqa: E402
from cribboard.club.service import BOARD_THREADS as THREADS  # noqa: E402
from cribcore.clubwire import BOARD, COUNTER, SIGNATURE  # noqa: E402
from cribcore.signing import signature  # noqa: E402

KEEP = (
    "INSERT INTO club_live (board, version, state) VALUES (%s, 1, %s) ON CONFLICT (board) "
    "DO UPDATE SET version = club_live.version + 1, state = excluded.state"
)


def main():
    db_url = sys.argv[1]
    pool = ConnectionPool(db_url, min_size=THREADS, max_size=THREADS, kwargs={"autocommit": True}, open=True)
    with pool.connection() as conn:  # the keys, as serve knows them from the start (its Keys)
        keys = {b: bytes(k) for b, k in conn.execute("SELECT board, key FROM club_keys").fetchall()}
    pool_threads = ThreadPoolExecutor(THREADS)

    def work(path, head, body):
        board, counter, given = (head.get(n.lower().encode(), b"").decode() for n in (BOARD, COUNTER, SIGNATURE))
        key = keys.get(board)
        if key is None or not hmac.compare_digest(
            signature(key, "POST", path, board, counter, body).encode(), given.encode()
        ):
            return 403, [(b"content-length", b"0")], b""
        state = json.loads(body)["state"]
        with pool.connection() as conn:
            conn.execute(KEEP, (board, json.dumps(state)))
        raw = json.dumps({"board": board, "counter": counter}).encode()
        sig = signature(key, "ACK", path, board, counter, raw).encode()
        return (
            200,
            [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(raw)),
                (SIGNATURE.lower().encode(), sig),
            ],
            raw,
        )

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        status, headers, raw = await asyncio.get_running_loop().run_in_executor(
            pool_threads, work, scope["path"], dict(scope["headers"]), body
        )
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": raw})

    server = ClubServer(app, "127.0.0.1", 0)
    print("http://127.0.0.1:%d/" % server.server_address[1], flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    server.shutdown()
    pool_threads.shutdown()
    pool.close()


if __name__ == "__main__":
    main()
