# One request through an ASGI app (the club's front), as uvicorn would hand
# it over, without a server: for the tests that check every answer.
import asyncio


def call(app, scope, body=b""):
    """(status, {header name: value}, body) of app's answer to scope with body."""

    async def run():
        sent = []
        given = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive():
            if given:
                return given.pop()
            await asyncio.Event().wait()  # (nothing more comes: the client stays)

        async def send(message):
            sent.append(message)

        await app(scope, receive, send)
        return sent

    sent = asyncio.run(run())
    start = sent[0]
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in start["headers"]}
    return start["status"], headers, b"".join(m.get("body", b"") for m in sent[1:])
