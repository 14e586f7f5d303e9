import re
import secrets
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotFound, JsonResponse

from apps.api.errors import error_body, json_errors_for_path
from apps.api.logs import current_request_id
from apps.core.errors import STATUS_BY_CODE, ErrorCode

GetResponse = Callable[[HttpRequest], HttpResponse]  # the next step of a middleware chain

_CLIENT_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")  # fullmatch: "$" would let a trailing newline in


def request_id_for(client_id: str) -> str:
    """The request's id: the client's X-Request-Id when well-formed, else a new one."""
    return client_id if _CLIENT_REQUEST_ID.fullmatch(client_id) else secrets.token_hex(16)  # 32 hex digits


class RequestIdMiddleware:
    """Give every request an id: the client's X-Request-Id when well-formed, else a new one.

    The id is echoed in the X-Request-Id response header and in kiosk error bodies.
    """

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_for(request.headers.get("X-Request-Id", ""))
        # Read back with getattr (apps.api.errors): HttpRequest declares no such attribute.
        request.request_id = request_id  # type: ignore[attr-defined]
        # Not reset on the way out: Django logs 4xx/5xx answers after the middleware returns.
        # The next request on this thread or task sets its own id.
        current_request_id.set(request_id)
        response = self.get_response(request)
        response["X-Request-Id"] = request_id
        return response


class NulByteMiddleware:
    """Refuse a NUL character in the path (404: no id holds one) or in the query string (400),
    before any view hands it to PostgreSQL, whose text cannot store it (a DataError, a 500).
    JSON bodies are checked by apps.api.parsers, OAuth client ids by the owner API's validator."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path:
            return self._refuse(request, ErrorCode.NOT_FOUND, "There is no such resource.")
        if any("\x00" in key + "".join(values) for key, values in request.GET.lists()):
            return self._refuse(request, ErrorCode.MALFORMED_REQUEST, "The query may not contain NUL characters.")
        return self.get_response(request)

    def _refuse(self, request: HttpRequest, code: ErrorCode, message: str) -> HttpResponse:
        if not json_errors_for_path(request.path):
            return HttpResponseNotFound() if code == ErrorCode.NOT_FOUND else HttpResponse(status=400)
        return JsonResponse(error_body(request, code, message), status=STATUS_BY_CODE[code])
