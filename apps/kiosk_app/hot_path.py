"""The kiosk hot path: the status poll (GET /api/public/sessions/{id}/status) and the heartbeat
(POST /api/public/kiosks/heartbeat), answered by a lean ASGI route in front of Django.

Every waiting kiosk polls every 2 s and every idle one beats. Through Django's handler either
costs milliseconds of CPU, mostly the sync/async bridging of the middleware chain
(docs/scaling.md). Here a steady request is one Redis round trip on the event loop (redis-py's
asyncio client, apps.core.cache): the cached credentials and heartbeat marker and, for the poll,
the status copy and its generation are read and the rate window counted in one script call. What
that round trip leaves to do (a credentials or copy miss, a heartbeat write) runs in a worker
thread through the same selectors and services the Django views call, and every step is theirs:
`device_presented`/`device_refused` (401), `KioskThrottle` (429), `status_cache`, the exception
translation `error_answer` (envelopes, Retry-After, WWW-Authenticate), `request_id_for`,
`observe_request`, DRF's JSONRenderer for the body.

The route answers only what Django routes to the two views (Django's own resolver decides) and
would pass through the middleware unchanged; anything else (another method, a query string, an
Accept header other than JSON's, a host Django refuses, plain HTTP that production redirects, a
CORS signal handler, KIOSK_HOT_PATH=false) goes to Django, which answers it as before. The
answer's headers are put on by DRF's and Django's own code (apps.kiosk_app.hot_path_headers: the
view's headers and settings.MIDDLEWARE, memoised); tests/kiosks/test_kiosk_hot_path.py holds
both answers to each other, header for header and byte for byte.
"""

import functools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from asgiref.typing import (
    ASGI3Application,
    ASGIReceiveCallable,
    ASGISendCallable,
    HTTPResponseStartEvent,
    HTTPScope,
    Scope,
)
from corsheaders.signals import check_request_enabled
from django.conf import settings
from django.db import close_old_connections
from django.http import HttpResponse
from django.http.request import split_domain_port, validate_host
from django.urls import Resolver404, resolve
from django.utils.log import log_response
from rest_framework import exceptions as drf
from rest_framework.renderers import JSONRenderer
from rest_framework.views import APIView

from apps.api.errors import error_answer
from apps.api.logs import current_request_id
from apps.api.metrics import observe_request
from apps.api.middleware import request_id_for
from apps.api.throttles import KioskThrottle
from apps.kiosk_app.hot_path_headers import HeaderStack
from apps.kiosks import selectors as kiosk_selectors
from apps.kiosks.api import kiosk_request
from apps.kiosks.api.authentication import DeviceAuthentication, device_presented, device_refused
from apps.kiosks.api.kiosk import HEARTBEAT_ANSWER, HeartbeatView
from apps.sessions import selectors as session_selectors
from apps.sessions import status_cache
from apps.sessions.api.kiosk import SessionStatusView

P = ParamSpec("P")
T = TypeVar("T")
Body = Mapping[str, object]  # a JSON object, rendered by DRF's JSONRenderer
URLKwargs = dict[str, Any]  # as Django's resolver types them (strings, for our two routes)

# The views this route answers for, and the method each answers here (others go to Django).
_ROUTED: dict[type[APIView], str] = {SessionStatusView: "GET", HeartbeatView: "POST"}
_JSON_ACCEPTS = {"*/*", "application/*", "application/json"}  # what DRF answers with JSONRenderer as is
_renderer = JSONRenderer()


@functools.lru_cache(maxsize=10_000)  # a kiosk polls one path over and over; URLs do not change
def _routed_view(path: str) -> tuple[type[APIView] | None, URLKwargs]:
    """The view Django's resolver routes `path` to (if one of ours) and its URL kwargs."""
    try:
        match = resolve(path)
    except Resolver404:
        return None, {}
    view: type[APIView] | None = getattr(match.func, "view_class", None)  # set by as_view()
    return (view, match.kwargs) if view in _ROUTED else (None, {})


@dataclass(frozen=True)
class _Settings:
    """What the route reads of the settings, read once: a web process's settings do not change."""

    enabled: bool
    allowed_hosts: list[str]
    ssl_redirect: bool
    proxy_ssl_header: tuple[str, str] | None

    @classmethod
    def read(cls) -> "_Settings":
        security = "django.middleware.security.SecurityMiddleware" in settings.MIDDLEWARE
        allowed_hosts = settings.ALLOWED_HOSTS
        if settings.DEBUG and not allowed_hosts:
            allowed_hosts = [".localhost", "127.0.0.1", "[::1]"]  # as HttpRequest.get_host
        return cls(
            # Requests our middleware would rewrite or refuse by settings go to Django whole.
            enabled=settings.KIOSK_HOT_PATH
            and not (settings.USE_X_FORWARDED_HOST or settings.DISALLOWED_USER_AGENTS or settings.PREPEND_WWW),
            allowed_hosts=allowed_hosts,
            ssl_redirect=security and settings.SECURE_SSL_REDIRECT,
            proxy_ssl_header=settings.SECURE_PROXY_SSL_HEADER,
        )


class KioskHotPath:
    """ASGI: the kiosk's status poll and heartbeat answered here, everything else by `django_app`."""

    def __init__(self, django_app: ASGI3Application) -> None:
        self.django_app = django_app
        self.header_stack = HeaderStack(list(_ROUTED))
        self.settings = _Settings.read()

    async def __call__(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        if scope["type"] == "http" and self.settings.enabled:
            routed = self._routed(scope)
            if routed is not None:
                return await self._serve(scope, routed, receive, send)
        return await self.django_app(scope, receive, send)

    async def _serve(
        self,
        scope: HTTPScope,
        routed: tuple[type[APIView], URLKwargs, dict[str, str]],
        receive: ASGIReceiveCallable,
        send: ASGISendCallable,
    ) -> None:
        view, kwargs, headers = routed
        started = time.perf_counter()
        if view is HeartbeatView:
            await _drain_body(receive)  # unread, as the view leaves it
        path = scope["path"]
        request_id = request_id_for(headers.get("x-request-id", ""))
        current_request_id.set(request_id)  # the log lines of this request carry it
        body: Body
        extra: dict[str, str]
        try:
            status, body, extra = 200, await self._answer(view, kwargs, headers), {}
        except Exception as exc:  # noqa: BLE001 - translated as the API's exception handler does
            if isinstance(exc, (drf.NotAuthenticated, drf.AuthenticationFailed)):
                # DRF's own attribute (APIView.handle_exception sets it), which its stubs leave out
                exc.auth_header = DeviceAuthentication().authenticate_header(None)  # type: ignore[union-attr]
            status, body, extra = error_answer(exc, path=path, request_id=request_id)
        content = _renderer.render(body)
        answer = self.header_stack.memoised(view, scope, status, content, extra, request_id)
        if answer is None:  # Django's middleware chain: sync code (a session cookie's read and save)
            answer = await _in_thread(self.header_stack.answer, view, scope, status, content, extra, request_id)
        status = answer.status
        start: HTTPResponseStartEvent = {
            "type": "http.response.start",
            "status": status,
            "headers": answer.headers,
            "trailers": False,
        }
        await send(start)
        await send({"type": "http.response.body", "body": answer.content, "more_body": False})
        if status >= 400:  # Django's handler logs every 4xx/5xx answer
            log_response("%s: %s", HTTPStatus(status).phrase, path, response=HttpResponse(status=status))
        observe_request(path, scope["method"], status, time.perf_counter() - started)

    def _routed(self, scope: HTTPScope) -> tuple[type[APIView], URLKwargs, dict[str, str]] | None:
        """(view, its URL kwargs, the request headers) for a request this route answers, else None."""
        path = scope["path"]
        if (
            scope["method"] not in ("GET", "POST")
            or scope.get("query_string")  # NulByteMiddleware reads it
            or scope.get("root_path")
            or "\x00" in path
            or not path.startswith("/api/public/")
        ):
            return None
        view, kwargs = _routed_view(path)
        if view is None or _ROUTED[view] != scope["method"]:
            return None
        headers: dict[str, str] = {}
        for raw_name, raw_value in scope["headers"]:  # as Django's ASGIRequest reads them
            name, value = raw_name.decode("latin1").lower(), raw_value.decode("latin1")
            headers[name] = f"{headers[name]},{value}" if name in headers else value
        if not self._passes_middleware_unchanged(scope, headers):
            return None
        return view, kwargs, headers

    def _passes_middleware_unchanged(self, scope: HTTPScope, headers: dict[str, str]) -> bool:
        """Whether no middleware of ours, nor DRF's content negotiation, would refuse, redirect or
        otherwise answer this request differently."""
        domain, _port = split_domain_port(headers.get("host", ""))
        if not domain or not validate_host(domain, self.settings.allowed_hosts):
            return False  # Django answers 400 (DisallowedHost)
        if self.settings.ssl_redirect and not self._is_secure(scope, headers):
            return False  # SecurityMiddleware redirects to https
        accept = headers.get("accept")
        if accept is not None and (";" in accept or not {part.strip() for part in accept.split(",")} & _JSON_ACCEPTS):
            return False  # a 406, or JSON rendered with the Accept header's parameters
        if check_request_enabled.has_listeners():
            return False  # CORS decided by a signal handler that wants a Django request
        return KioskThrottle().rate is not None  # the route counts every request in a window

    def _is_secure(self, scope: HTTPScope, headers: dict[str, str]) -> bool:
        """HttpRequest.is_secure(), read from the ASGI scope."""
        if self.settings.proxy_ssl_header:
            meta_name, secure_value = self.settings.proxy_ssl_header
            value = headers.get(meta_name.removeprefix("HTTP_").replace("_", "-").lower())
            if value is not None:
                return value.split(",", 1)[0].strip() == secure_value
        return scope.get("scheme") == "https"

    async def _answer(self, view: type[APIView], kwargs: URLKwargs, headers: dict[str, str]) -> Body:
        """The body of a 200; any refusal raised, as DeviceAuthentication and the views raise it."""
        device_id, token_hash = device_presented(headers.get("x-device-id", ""), headers.get("x-device-token", ""))
        throttle = KioskThrottle()
        public_id: str = kwargs.get("public_id", "")  # the status poll's; the heartbeat has none
        extra_keys = status_cache.copy_keys(public_id) if view is SessionStatusView else []  # same round trip
        window = throttle.window_for(device_id, token_hash)
        assert window is not None  # routed here only while the kiosk rate is set (_passes_middleware_unchanged)
        found = await kiosk_request.aread(device_id, token_hash, window, extra_keys)
        lookup = functools.partial(
            kiosk_selectors.credentials_from_cache,
            device_id=device_id,
            token_hash=token_hash,
            cached=found.cached,
            count=found.count,
        )
        if kiosk_selectors.credentials_need_database(device_id=device_id, cached=found.cached):
            maybe_credentials = await _in_thread(lookup)
        else:
            maybe_credentials = lookup()  # no I/O
        credentials = device_refused(maybe_credentials)  # its `kiosk` is built only off the steady path
        if credentials.heartbeat_due:
            await _in_thread(kiosk_request.record_heartbeat, kiosk=credentials.kiosk, found=found)
        if not throttle.admits(found.count):
            raise drf.Throttled(throttle.wait())
        if view is HeartbeatView:
            return HEARTBEAT_ANSWER
        copy = status_cache.current_copy(found.cached, kiosk_id=credentials.kiosk_id, public_id=public_id)
        if copy is not None:
            return copy
        kiosk = credentials.kiosk
        return await _in_thread(session_selectors.session_status_body_for_kiosk, kiosk=kiosk, public_id=public_id)


async def _drain_body(receive: ASGIReceiveCallable) -> None:
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body"):
            return


async def _in_thread(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`function(*args, **kwargs)` on a worker thread, its database connections handled as Django's
    request signals handle a view's (closed back to the pool when done)."""
    return await sync_to_async(_with_connections, thread_sensitive=False)(functools.partial(function, *args, **kwargs))


def _with_connections(call: Callable[[], T]) -> T:
    close_old_connections()
    try:
        return call()
    finally:
        close_old_connections()
