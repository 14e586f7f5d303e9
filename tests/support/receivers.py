"""A real HTTP receiver on a loopback port, for webhook tests: it records every request (raw
body bytes and headers) and answers from a script of responses."""

import time
from dataclasses import dataclass, field

from tests.support.loopback import Answer, LoopbackServer


@dataclass
class Reply:
    status: int = 200
    delay: float = 0.0
    headers: dict = field(default_factory=dict)
    body: bytes = b"ok"


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes


class Receiver(LoopbackServer):
    def __init__(self):
        super().__init__()
        self.received: list[Received] = []
        self.script: list[Reply] = []
        self.default = Reply()

    def answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Answer:
        self.received.append(Received(path, headers, body))
        reply = self.script.pop(0) if self.script else self.default
        if reply.delay:
            time.sleep(reply.delay)
        return Answer(reply.status, reply.body, dict(reply.headers))

    @property
    def url(self) -> str:
        return f"{self.base_url}/hooks"
