"""The agent API's CSRF scheme (spec section 5), as Laravel Sanctum clients expect it.

The server sets a script-readable XSRF-TOKEN cookie; every mutating request echoes it in the
X-XSRF-TOKEN header. Before login the header must equal the cookie (double submit); once logged
in it must equal the token kept in the server-side session, so a cookie planted by another site
cannot stand in for it. A mismatch is answered with 419.
"""

import secrets

from django.conf import settings
from django.contrib.auth import SESSION_KEY as AUTH_SESSION_KEY
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare

from apps.api.errors import CsrfMismatch

SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}
_SESSION_KEY = "_xsrf_token"


def issue_token(request: HttpRequest, response: HttpResponse) -> str:
    """Create a fresh token, bind it to the session (if any) and set it as the cookie."""
    token = secrets.token_urlsafe(32)
    if AUTH_SESSION_KEY in request.session:  # signed in: bind the token to the session
        request.session[_SESSION_KEY] = token
    response.set_cookie(
        settings.XSRF_COOKIE_NAME,
        token,
        max_age=settings.SESSION_COOKIE_AGE,
        secure=settings.CSRF_COOKIE_SECURE,
        httponly=False,
        samesite="Lax",
    )
    return token


def clear_cookie(response: HttpResponse) -> None:
    response.delete_cookie(settings.XSRF_COOKIE_NAME, samesite="Lax")


def enforce(request: HttpRequest) -> None:
    """Raise CsrfMismatch (419) when a mutating request lacks a matching X-XSRF-TOKEN."""
    if request.method in SAFE_METHODS:
        return
    header = request.META.get(settings.XSRF_HEADER_NAME, "")
    if AUTH_SESSION_KEY in request.session:
        expected = request.session.get(_SESSION_KEY, "")
    else:
        expected = request.COOKIES.get(settings.XSRF_COOKIE_NAME, "")
    if not header or not expected or not constant_time_compare(header, expected):
        raise CsrfMismatch()
