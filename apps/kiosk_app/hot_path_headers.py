"""The headers of the kiosk hot path's answers (apps.kiosk_app.hot_path), put on by the code that
puts them on Django's: the view's DRF headers (`APIView.default_response_headers`) and Django's
middleware chain, built from `settings.MIDDLEWARE` as Django's handler builds it. Adding a
middleware, or changing one's settings, changes both answers at once.

Running the chain costs about as much as the rest of a poll, so its headers are memoised per
distinct request and answer: the route's own request headers (but its id), path, method and
scheme, and the answer's status, headers and length. A kiosk sends the same headers on every
poll, so after its first one the chain's headers are a dictionary lookup. The request id is the
one value that changes each time: the chain runs with a placeholder id, and whichever header
carries it carries the request's. What the memo assumes of a middleware, and the parity test
(tests/kiosks/test_kiosk_hot_path.py) holds: its headers depend on those inputs only, not on the
time or the body's bytes. A chain that answers something else than the route's answer (a
redirect, a changed body) or sets a cookie is not memoised, and its answer is sent as it is.

The chain is synchronous code that may do I/O (SessionMiddleware reads and saves the session of a
request carrying its cookie, in the database): it runs only where Django's own handler runs it,
in a worker thread (`answer`), never on the event loop; the event loop reads the memo alone
(`memoised`).
"""

import contextvars
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from asgiref.typing import HTTPScope
from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.core.handlers.asgi import ASGIRequest
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse
from django.utils.module_loading import import_string
from rest_framework.views import APIView

from apps.api.metrics import RequestMetricsMiddleware

Headers = list[tuple[bytes, bytes]]
Extra = dict[str, str]  # the answer's own headers (Retry-After, WWW-Authenticate)
WireHeaders = tuple[tuple[bytes, bytes], ...]  # a memoised answer's headers
# (view, method, path, scheme, request headers but the id, status, body length)
RequestKey = tuple[type[APIView], str, str, str | None, WireHeaders, int, int]
MemoKey = tuple[RequestKey, tuple[tuple[str, str], ...]]  # and the answer's extra headers
_REQUEST_ID = "kiosk-hot-path-request-id"  # well-formed, so RequestIdMiddleware keeps it
_REQUEST_ID_HEADER = b"x-request-id"
_MEMO_SIZE = 10_000
_UNKNOWN = object()


@dataclass(frozen=True)
class Answer:
    """What the route answers: status, body and headers as the wire carries them."""

    status: int
    content: bytes
    headers: Headers


def _chain() -> Callable[[HttpRequest], HttpResponse]:
    """settings.MIDDLEWARE around a handler returning the answer the request carries, as
    BaseHandler.load_middleware builds it (synchronous: every middleware of ours supports it).
    RequestMetricsMiddleware is left out: the route observes its requests itself, timing all of
    its work, and a second observation would count each twice."""

    def answer(request: HttpRequest) -> HttpResponse:
        response: HttpResponse = request.hot_path_answer  # type: ignore[attr-defined]  # set by HeaderStack._run
        return response

    handler = convert_exception_to_response(answer)
    for path in reversed(settings.MIDDLEWARE):
        middleware = import_string(path)
        if middleware is RequestMetricsMiddleware:
            continue
        try:
            instance = middleware(handler)
        except MiddlewareNotUsed:
            continue
        handler = convert_exception_to_response(instance)
    return cast("Callable[[HttpRequest], HttpResponse]", handler)  # synchronous all the way


class HeaderStack:
    """Django's headers for the answers of `views` (DRF views), memoised."""

    def __init__(self, views: list[type[APIView]]):
        self.chain = _chain()
        self.view_headers = {view: _view_headers(view) for view in views}
        self._memo: dict[MemoKey, WireHeaders | None] = {}

    def memoised(
        self, view: type[APIView], scope: HTTPScope, status: int, content: bytes, extra: Extra, request_id: str
    ) -> Answer | None:
        """The answer from the memo without running the chain (safe on the event loop), or None:
        then `answer` runs it, in a worker thread."""
        memo = self._memo.get(_memo_key(view, scope, status, content, extra), _UNKNOWN)
        if memo is _UNKNOWN or memo is None:
            return None
        return _with_request_id(memo, status, content, request_id)  # type: ignore[arg-type]

    def answer(
        self, view: type[APIView], scope: HTTPScope, status: int, content: bytes, extra: Extra, request_id: str
    ) -> Answer:
        """The answer Django's stack gives for `content` (status `status`, `extra` headers) to
        the request of `scope`, with its id `request_id`. Runs the chain: synchronous code only."""
        memo_key = _memo_key(view, scope, status, content, extra)
        key, extra_items = memo_key
        memo = self._memo.get(memo_key, _UNKNOWN)
        if memo is _UNKNOWN:
            memo = self._through_chain(key, extra_items)
            if len(self._memo) >= _MEMO_SIZE:  # a kiosk polls one path with the same headers
                self._memo.clear()
            self._memo[memo_key] = memo
        if memo is None:  # not the route's answer, or not the same every time: the chain's own
            response = self._run(key, dict(extra_items), content, request_id)
            return Answer(response.status_code, response.content, _wire_headers(response))
        return _with_request_id(memo, status, content, request_id)  # type: ignore[arg-type]

    def _through_chain(self, key: RequestKey, extra: tuple[tuple[str, str], ...]) -> WireHeaders | None:
        status, length = key[5:]
        content = b"\x00" * length  # a stand-in of the body's length: the memo must not see its bytes
        response = self._run(key, dict(extra), content, _REQUEST_ID)
        if response.status_code != status or response.content != content or response.cookies:
            return None
        return tuple(_wire_headers(response))

    def _run(self, key: RequestKey, extra: dict[str, str], content: bytes, request_id: str) -> HttpResponse:
        view, method, path, scheme, request_headers, status, _length = key
        scope: dict[str, Any] = {"type": "http", "method": method, "path": path, "scheme": scheme, "query_string": b""}
        scope["headers"] = [*request_headers, (_REQUEST_ID_HEADER, request_id.encode())]
        request = ASGIRequest(scope, io.BytesIO())
        response = HttpResponse(content, status=status, content_type="application/json")
        for name, value in {**extra, **self.view_headers[view]}.items():  # as DRF's finalize_response
            response[name] = value
        request.hot_path_answer = response  # type: ignore[attr-defined]  # what the chain's handler returns
        # In a copy of the context: the chain's RequestIdMiddleware sets the log lines' request id.
        return contextvars.copy_context().run(self.chain, request)


def _memo_key(view: type[APIView], scope: HTTPScope, status: int, content: bytes, extra: dict[str, str]) -> MemoKey:
    request_headers = tuple(item for item in scope["headers"] if item[0].lower() != _REQUEST_ID_HEADER)
    key: RequestKey = (view, scope["method"], scope["path"], scope.get("scheme"), request_headers, status, len(content))
    return key, tuple(extra.items())


def _with_request_id(memo: WireHeaders, status: int, content: bytes, request_id: str) -> Answer:
    placeholder, request_id_bytes = _REQUEST_ID.encode(), request_id.encode()
    headers = [(name, request_id_bytes if value == placeholder else value) for name, value in memo]
    return Answer(status, content, headers)


def _view_headers(view: type[APIView]) -> dict[str, str]:
    """DRF's headers of `view`'s answers (Allow, and Vary when it has several renderers), from an
    instance set up as Django's `as_view` sets one up (which adds HEAD wherever there is GET)."""
    instance = view()
    instance.setup(HttpRequest())
    return dict(instance.default_response_headers)


def _wire_headers(response: HttpResponse) -> Headers:
    """The headers as Django's ASGI handler sends them (its cookies too)."""
    headers = [(name.encode("ascii"), value.encode("latin1")) for name, value in response.items()]
    cookies = response.cookies.values()
    headers += [(b"Set-Cookie", cookie.output(header="").encode("ascii").strip()) for cookie in cookies]
    return headers
