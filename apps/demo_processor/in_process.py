"""The demo processor reached without the network: a `stripe.HTTPClient` (the library's
documented extension point for custom HTTP clients) that hands each request the library makes
to the demo processor's own view in this process, instead of sending it over HTTP to
127.0.0.1:$PORT. A server started any way (`make run`, `daphne -p 9000 ...`, a second run on
another port, a worker) pays through its own demo processor; nothing depends on the port.

The library's calls are unchanged: it builds the same request (method, URL under
PROCESSOR_API_BASE, form-encoded body, Authorization, Stripe-Account, Idempotency-Key headers)
and parses the same answer. Settings point PROCESSOR_API_BASE at IN_PROCESS_API_BASE, a `.invalid`
host (RFC 2606: never resolves), so a request that escaped this client could reach nobody.
The real processor's path (a PROCESSOR_SECRET_KEY, or a PROCESSOR_API_BASE set by hand) keeps
`stripe.RequestsClient`."""

import io
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import stripe
from django.conf import settings
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import Resolver404, resolve

IN_PROCESS_HOST = "demo-processor.invalid"
# Request headers the demo processor reads, as Django's request.META keys.
_FORWARDED = ("Authorization", "Stripe-Account", "Idempotency-Key", "Stripe-Version", "User-Agent")


def in_process_api_base() -> str:
    return f"http://{IN_PROCESS_HOST}{settings.DEMO_PROCESSOR_PATH}"


def handles(api_base: str) -> bool:
    """Whether processor calls to `api_base` go to this process's demo processor."""
    return bool(settings.DEMO_PROCESSOR) and urlsplit(api_base or "").hostname == IN_PROCESS_HOST


class InProcessDemoClient(stripe.HTTPClient):
    name = "demo-processor-in-process"

    # stripe.HTTPClient's signatures: the body is the library's form-encoded string.
    def request(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str] | None,
        post_data: str | None = None,
        *,
        _usage: list[str] | None = None,
    ) -> tuple[str, int, Mapping[str, str]]:
        response = self._dispatch(method, url, headers or {}, post_data)
        return response.content.decode("utf-8"), response.status_code, dict(response.headers)

    def request_stream(self, *args: Any, **kwargs: Any) -> tuple[io.BytesIO, int, Mapping[str, str]]:
        """`request` (the same parameters), its body as a stream: the library's file downloads."""
        content, status, headers = self.request(*args, **kwargs)
        return io.BytesIO(content.encode("utf-8")), status, headers

    def close(self) -> None:
        pass  # no connections

    def _dispatch(self, method: str, url: str, headers: Mapping[str, str], post_data: str | None) -> HttpResponse:
        parts = urlsplit(url)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        forwarded = {name: headers[name] for name in _FORWARDED if name in headers}
        factory = RequestFactory()
        if method.upper() == "GET":
            request = factory.get(path, headers=forwarded)
        else:
            body = post_data or ""
            request = factory.generic(
                method.upper(), path, body, content_type="application/x-www-form-urlencoded", headers=forwarded
            )
        try:
            match = resolve(parts.path)
        except Resolver404:
            message = f"No demo processor route for {parts.path}."
            raise stripe.APIConnectionError(message) from None  # type: ignore[no-untyped-call]  # stripe leaves its __init__ unannotated
        response: HttpResponse = match.func(request, *match.args, **match.kwargs)  # a demo processor view
        return response
