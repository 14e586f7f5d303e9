"""Errors raised outside DRF views (in middleware, e.g. the session save of a response while the
database is down) reach Django's handler400/handler500. On the API surfaces and the processor
webhooks they are rendered in the surface's envelope too, with a lost database answered 503 like
everywhere else and a body over the upload limit 413; other pages (panel, admin) keep Django's
own error pages."""

import sys

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

from apps.api.errors import error_body, json_errors_for_path, too_large
from apps.core.errors import STATUS_BY_CODE, ErrorCode

_UNAVAILABLE = "The service is briefly unavailable. Retry shortly."


def _caused_by_database(exc: BaseException | None) -> bool:
    """Django reports a failed session save as SessionInterrupted/UpdateError; look down the chain."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, DatabaseError):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def _envelope(
    request: HttpRequest, exc: BaseException | None, code: ErrorCode, message: str, status: int
) -> JsonResponse:
    if _caused_by_database(exc):
        response = JsonResponse(error_body(request, ErrorCode.SERVICE_UNAVAILABLE, _UNAVAILABLE), status=503)
        response["Retry-After"] = "5"
        return response
    return JsonResponse(error_body(request, code, message), status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not json_errors_for_path(request.path):
        return defaults.bad_request(request, exception)
    if isinstance(exception, (RequestDataTooBig, TooManyFieldsSent)):
        code, message, _, _ = too_large(exception)
        return JsonResponse(error_body(request, code, message), status=STATUS_BY_CODE[code])
    return _envelope(request, exception, ErrorCode.MALFORMED_REQUEST, "The request could not be processed.", 400)


def server_error(request: HttpRequest) -> HttpResponse:
    if not json_errors_for_path(request.path):
        return defaults.server_error(request)
    return _envelope(request, sys.exc_info()[1], ErrorCode.INTERNAL_ERROR, "An unexpected error occurred.", 500)
