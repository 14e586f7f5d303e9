"""DRF adapter: the Django request under a DRF request.

DRF's `Request` wraps Django's `HttpRequest` by composition and proxies attribute reads to it,
but offers no public accessor for the wrapped request itself, which some calls need: Django's
session user as AuthenticationMiddleware left it (DRF's `request.user` is DRF's own), CSRF/XSRF
checks and `logout` that take an HttpRequest, and handing the request on to a plain Django view
(django-oauth-toolkit's TokenView). DRF itself reads `request._request` for the same purposes
(SessionAuthentication), so this is the one place that does: DRF is pinned exactly in
requirements.txt and tests/operations/test_library_adapters.py fails if the attribute disappears.
"""

from django.http import HttpRequest
from rest_framework.request import Request


def django_request(request: Request) -> HttpRequest:
    """The HttpRequest a DRF Request wraps."""
    wrapped = request._request
    assert isinstance(wrapped, HttpRequest)
    return wrapped
