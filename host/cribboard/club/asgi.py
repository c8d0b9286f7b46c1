# The ASGI plumbing the club's front and its live streams share: the types
# of what uvicorn hands an app, and an Answer sent. (The server runs with
# lifespan="off": the app has nothing to start or stop with it.)
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from cribboard.web.http import Answer

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


async def send_answer(send: Send, answer: Answer, head_only: bool) -> None:
    data = answer.data()
    headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in answer.head(data)]
    if answer.close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": answer.status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if head_only else data})
