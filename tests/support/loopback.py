"""A threaded HTTP server on loopback (a free port) for the length of a `with` block: the base of
the test stand-ins that the service calls over HTTP (tests/support/processor_standin.py,
tests/support/receivers.py). A subclass says what to answer; this class reads the request and
writes the answer."""

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# How often a test server's loop looks whether it was told to stop: `shutdown()` waits for that
# look, and socketserver's default (half a second) made every `with` block end half a second late
# (a processor stand-in or webhook receiver per test: minutes of the suite).
SHUTDOWN_POLL_SECONDS = 0.02


@dataclass
class Answer:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)  # Content-Length is added


class LoopbackServer:
    def __init__(self) -> None:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                owner._serve(self, "GET")

            def do_POST(self) -> None:
                owner._serve(self, "POST")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": SHUTDOWN_POLL_SECONDS}, daemon=True
        )

    def answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Answer:
        """What to answer a request with (it may wait first, to play a slow server)."""
        raise NotImplementedError

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _serve(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        length = int(handler.headers.get("Content-Length", 0))
        body = handler.rfile.read(length) if length else b""
        answer = self.answer(method, handler.path, dict(handler.headers.items()), body)
        try:
            handler.send_response(answer.status)
            for name, value in answer.headers.items():
                handler.send_header(name, value)
            handler.send_header("Content-Length", str(len(answer.body)))
            handler.end_headers()
            handler.wfile.write(answer.body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up waiting (the timeout tests)
