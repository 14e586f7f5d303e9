"""Oversized request heads: through the real web server, a 40-60 KB header used to make daphne drop
the connection without a response. It is answered 431 in the JSON envelope; a head under the limit
is still served."""

import json
import socket

import pytest


@pytest.fixture
def server(shared_live_server):
    """The worker's shared server: the heads are the test's, the settings the defaults."""
    return shared_live_server


def _exchange(port: int, head: bytes) -> bytes:
    """Send a raw request head and read until the server closes (or 10 s pass)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def _request(headers: str) -> bytes:
    return f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}Connection: close\r\n\r\n".encode()


@pytest.mark.parametrize("size", [40_000, 60_000])
def test_one_huge_header_is_answered_431(server, size):
    raw = _exchange(server.port, _request(f"X-Padding: {'a' * size}\r\n"))
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431 "), raw[:200]
    assert b"Content-Type: application/json" in head
    error = json.loads(body)["error"]
    assert error["code"] == "REQUEST_HEADERS_TOO_LARGE" and "16384 bytes" in error["message"]


def test_many_headers_adding_up_past_the_limit_are_answered_431(server):
    headers = "".join(f"X-Padding-{i}: {'b' * 1000}\r\n" for i in range(50))
    raw = _exchange(server.port, _request(headers))
    assert raw.startswith(b"HTTP/1.1 431 "), raw[:200]


def test_a_head_under_the_limit_is_served(server):
    raw = _exchange(server.port, _request(f"X-Padding: {'c' * 8000}\r\n"))
    assert raw.startswith(b"HTTP/1.1 200 "), raw[:200]
