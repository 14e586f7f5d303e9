"""Django's ASGI handler with the middleware chain run the way WSGI runs it: synchronously, in one
worker thread per request.

Django's own ASGI handler builds the chain in async mode. Our views (DRF) are sync, and so is
every `MiddlewareMixin` middleware, which in async mode runs each `process_request`,
`process_view` and `process_response` through its own `sync_to_async` call: a thread hop each,
about fifteen per request, which cost most of a simple request's time (docs/decisions/operations.md "One
thread hop per request"). Here the chain is built in sync mode, as the test client and a WSGI
server build it, and the whole of it runs in one `sync_to_async` call: the same thread as the
request's `request_started`/`request_finished` signals (thread-sensitive), so the database
connection is the one Django opens and closes for the request. Reading the body, sending the
response and noticing a client that went away stay on the event loop, as before.

An async view would still work (Django runs it with `async_to_sync`), at the cost of a hop back
to the event loop; the hot paths that need async live in front of Django in config/asgi.py.
"""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase


class OneHopASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        BaseHandler.__init__(self)  # not ASGIHandler's, which builds the chain in async mode
        self.load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
