"""The error envelopes and the one exception handler every API view uses.

Kiosk surface: {"error": {"code", "message", "request_id"}}.
Agent and token surfaces: {"error": {"code", "message"}}.
Validation errors add "details" (field -> messages). The surface is read from the path, so
unknown routes (served by a catch-all view per surface) get the same envelope.
"""

import logging
from typing import Any, NotRequired, TypedDict

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import set_rollback

from apps.api.surfaces import Surface, surface_for_path
from apps.core.errors import STATUS_BY_CODE, DomainError, ErrorCode

logger = logging.getLogger(__name__)

Headers = dict[str, str]
Translation = tuple[ErrorCode, str, Any, Headers]  # (code, message, details, headers)


class ErrorFields(TypedDict):
    code: str
    message: str
    details: NotRequired[Any]  # the validation errors (field -> messages), any JSON
    request_id: NotRequired[str | None]  # the kiosk surface's only


class ErrorEnvelope(TypedDict):
    error: ErrorFields


class CsrfMismatch(drf.APIException):
    status_code = 419
    default_detail = "The X-XSRF-TOKEN header is missing or does not match the XSRF-TOKEN cookie."
    default_code = ErrorCode.CSRF_MISMATCH


# JSON routes outside the four surfaces (processor webhooks, the Pusher HTTP API and its /users/
# alias, channel auth): their errors use the agent-style envelope.
OTHER_JSON_PREFIXES = ("/processor/", "/apps/", "/broadcasting/", "/users/")


def json_errors_for_path(path: str) -> bool:
    """Whether errors at `path` are answered in a JSON envelope (the API surfaces and the other
    JSON routes) rather than Django's HTML pages (panel, admin)."""
    return surface_for_path(path) is not None or path.startswith(OTHER_JSON_PREFIXES)


def error_body(request: HttpRequest, code: str, message: str, details: Any = None) -> ErrorEnvelope:
    return envelope(code, message, details, path=request.path, request_id=getattr(request, "request_id", None))


def envelope(code: str, message: str, details: Any = None, *, path: str, request_id: str | None) -> ErrorEnvelope:
    """The error body for a request to `path` (the kiosk surface's carries the request id)."""
    error: ErrorFields = {"code": str(code), "message": message}
    if details is not None:
        error["details"] = details
    if surface_for_path(path) == Surface.KIOSK:
        error["request_id"] = request_id
    return {"error": error}


def error_response(
    request: HttpRequest, code: ErrorCode, message: str, *, details: Any = None, headers: Headers | None = None
) -> Response:
    return Response(error_body(request, code, message, details), status=STATUS_BY_CODE[code], headers=headers)


def too_large(exc: RequestDataTooBig | TooManyFieldsSent) -> Translation:
    """Django's upload limits (DATA_UPLOAD_MAX_MEMORY_SIZE, DATA_UPLOAD_MAX_NUMBER_FIELDS)."""
    if isinstance(exc, TooManyFieldsSent):
        return ErrorCode.MALFORMED_REQUEST, "The form has too many fields.", None, {}
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return ErrorCode.PAYLOAD_TOO_LARGE, f"The request body is larger than the limit of {limit} bytes.", None, {}


def _auth_code(path: str) -> ErrorCode:
    if surface_for_path(path) == Surface.KIOSK:
        return ErrorCode.DEVICE_TOKEN_INVALID
    return ErrorCode.UNAUTHENTICATED


def _translate(exc: Exception, path: str) -> Translation:
    """Map any exception to (code, message, details, headers)."""
    if isinstance(exc, DomainError):
        return exc.code, exc.message, exc.details, exc.headers
    if isinstance(exc, drf.ValidationError):
        return ErrorCode.VALIDATION_ERROR, "The request has invalid fields.", exc.detail, {}
    if isinstance(exc, drf.ParseError):
        return ErrorCode.MALFORMED_REQUEST, f"The request body could not be parsed: {exc.detail}", None, {}
    if isinstance(exc, (RequestDataTooBig, TooManyFieldsSent)):
        return too_large(exc)
    if isinstance(exc, (drf.NotAuthenticated, drf.AuthenticationFailed)):
        return _auth_code(path), str(exc.detail), None, {}
    if isinstance(exc, CsrfMismatch):
        return ErrorCode.CSRF_MISMATCH, str(exc.detail), None, {}
    if isinstance(exc, drf.Throttled):
        retry_in: float | None = getattr(exc, "wait", None)  # set by Throttled, not in its stubs
        wait = max(1, int(retry_in or 1))
        message = f"Too many requests. Retry in {wait} seconds."
        return ErrorCode.RATE_LIMITED, message, None, {"Retry-After": str(wait)}
    if isinstance(exc, (drf.PermissionDenied, DjangoPermissionDenied)):
        return ErrorCode.FORBIDDEN, "You do not have permission to perform this action.", None, {}
    if isinstance(exc, drf.NotFound):
        return ErrorCode.NOT_FOUND, str(exc.detail), None, {}
    if isinstance(exc, Http404):
        return ErrorCode.NOT_FOUND, "Not found.", None, {}
    if isinstance(exc, drf.MethodNotAllowed):
        return ErrorCode.METHOD_NOT_ALLOWED, str(exc.detail), None, {}
    if isinstance(exc, drf.UnsupportedMediaType):
        return ErrorCode.UNSUPPORTED_MEDIA_TYPE, str(exc.detail), None, {}
    if isinstance(exc, drf.NotAcceptable):
        return ErrorCode.NOT_ACCEPTABLE, str(exc.detail), None, {}
    if isinstance(exc, (OperationalError, InterfaceError)):
        logger.warning("database unavailable: %s", exc)
        return ErrorCode.SERVICE_UNAVAILABLE, "The service is briefly unavailable. Retry shortly.", None, {}
    logger.exception("unhandled error", exc_info=exc)
    return ErrorCode.INTERNAL_ERROR, "An unexpected error occurred.", None, {}


def error_answer(exc: Exception, *, path: str, request_id: str | None) -> tuple[int, ErrorEnvelope, Headers]:
    """(status, body, headers) answering `exc` on a request to `path`: the exception handler's
    answer, also given by the kiosk hot path (apps.kiosk_app.hot_path), which runs outside DRF."""
    code, message, details, headers = _translate(exc, path)
    if code == ErrorCode.SERVICE_UNAVAILABLE:
        headers = {**headers, "Retry-After": "5"}
    # DRF names the surface's scheme on a 401 (RFC 9110), on the exception it raises.
    auth_header: str | None = getattr(exc, "auth_header", None)
    if auth_header:
        headers = {**headers, "WWW-Authenticate": auth_header}
    return STATUS_BY_CODE[code], envelope(code, message, details, path=path, request_id=request_id), headers


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF EXCEPTION_HANDLER: every error on every surface goes through here."""
    request = context["request"]
    status, body, headers = error_answer(exc, path=request.path, request_id=getattr(request, "request_id", None))
    set_rollback()  # roll back an enclosing atomic block, if any
    if isinstance(exc, drf.MethodNotAllowed) and context.get("view") is not None:
        headers = {**headers, "Allow": ", ".join(context["view"].allowed_methods)}
    return Response(body, status=status, headers=headers)
