"""Errors raised outside DRF views (middleware) answer in the surface's envelope too: a session
save that fails on a lost database is a 503, not Django's HTML 400 page."""

import json

from django.contrib.sessions.exceptions import SessionInterrupted
from django.db import OperationalError
from django.test import RequestFactory

from apps.api.fallback_errors import bad_request, server_error


def interrupted_by_database() -> SessionInterrupted:
    try:
        try:
            raise OperationalError("terminating connection due to administrator command")
        except OperationalError:
            raise SessionInterrupted("The request's session was deleted before the request completed.")
    except SessionInterrupted as exc:
        return exc


def test_session_save_lost_to_the_database_is_a_503_envelope():
    request = RequestFactory().get("/api/sessions/incoming")
    response = bad_request(request, interrupted_by_database())
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert json.loads(response.content) == {
        "error": {"code": "SERVICE_UNAVAILABLE", "message": "The service is briefly unavailable. Retry shortly."}
    }


def test_kiosk_surface_keeps_its_request_id():
    request = RequestFactory().get("/api/public/sessions/x/status")
    request.request_id = "abc"
    body = json.loads(bad_request(request, SessionInterrupted("gone")).content)
    assert body["error"] == {
        "code": "MALFORMED_REQUEST",
        "message": "The request could not be processed.",
        "request_id": "abc",
    }


def test_uncaught_middleware_error_is_a_500_envelope_without_internals():
    request = RequestFactory().get("/api/v1/orders")
    try:
        raise RuntimeError("secret internals")
    except RuntimeError:
        response = server_error(request)
    assert response.status_code == 500
    assert json.loads(response.content) == {
        "error": {"code": "INTERNAL_ERROR", "message": "An unexpected error occurred."}
    }


def test_pages_outside_the_apis_keep_djangos_error_pages(db):
    request = RequestFactory().get("/panel/")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        response = server_error(request)
    assert response.status_code == 500 and response["Content-Type"].startswith("text/html")


def test_a_body_over_the_limit_outside_a_view_is_a_413_envelope():
    from django.core.exceptions import RequestDataTooBig

    request = RequestFactory().post("/api/orders")
    response = bad_request(request, RequestDataTooBig("Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE."))
    assert response.status_code == 413
    assert json.loads(response.content)["error"]["code"] == "PAYLOAD_TOO_LARGE"


def test_the_processor_webhooks_get_json_errors_too():
    request = RequestFactory().post("/processor/connect/webhook")
    try:
        raise RuntimeError("secret internals")
    except RuntimeError:
        response = server_error(request)
    assert response.status_code == 500 and response["Content-Type"] == "application/json"
    assert json.loads(response.content)["error"]["code"] == "INTERNAL_ERROR"
