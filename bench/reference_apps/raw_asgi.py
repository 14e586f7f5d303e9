"""A raw ASGI callable answering a small JSON body: the ceiling of the ASGI server itself (no
framework). Same body as the project's /bench/ping."""

BODY = b'{"ok": true}'
START = {
    "type": "http.response.start",
    "status": 200,
    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())],
}
RESPONSE = {"type": "http.response.body", "body": BODY}


async def application(scope, receive, send):
    if scope["type"] == "lifespan":  # daphne does not send it; other servers might
        while (message := await receive())["type"] != "lifespan.shutdown":
            await send({"type": message["type"] + ".complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):  # read the request body (none for a GET)
        pass
    await send(START)
    await send(RESPONSE)
