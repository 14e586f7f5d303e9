"""The floor of "request in, message out" for bench/fleet.py: a bare `websockets` server holding
the clients (ws://host:port/?id=N) and answering `POST /relay?to=N&message=M` on the same port by
sending M to client N. No framework, no channel layer, no database: what this machine needs to
turn one HTTP request into one WebSocket frame. (websockets' own HTTP handling answers the POST
before the upgrade would; the request's body is not read.)

    python bench/reference_apps/ws_relay.py PORT
"""

import asyncio
import http
import sys
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import serve

clients = {}


async def handler(ws):
    client_id = parse_qs(urlsplit(ws.request.path).query).get("id", [""])[0]
    clients[client_id] = ws
    try:
        await ws.wait_closed()
    finally:
        clients.pop(client_id, None)


def relay(connection, request):
    url = urlsplit(request.path)
    if url.path != "/relay":
        return None  # a WebSocket handshake
    query = parse_qs(url.query)
    target = clients.get(query.get("to", [""])[0])
    if target is None:
        return connection.respond(http.HTTPStatus.NOT_FOUND, "no such client\n")
    asyncio.ensure_future(target.send(query.get("message", [""])[0]))
    return connection.respond(http.HTTPStatus.OK, "sent\n")


async def main(port: int) -> None:
    async with serve(handler, "127.0.0.1", port, process_request=relay):
        await asyncio.get_running_loop().create_future()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
