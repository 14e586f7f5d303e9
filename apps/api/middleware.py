import re
import uuid

from django.http import HttpRequest, HttpResponse

from apps.api.logs import current_request_id

_CLIENT_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")  # fullmatch: "$" would let a trailing newline in


class RequestIdMiddleware:
    """Give every request an id: the client's X-Request-Id when well-formed, else a new one.

    The id is echoed in the X-Request-Id response header and in kiosk error bodies.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        client_id = request.headers.get("X-Request-Id", "")
        request.request_id = client_id if _CLIENT_REQUEST_ID.fullmatch(client_id) else uuid.uuid4().hex
        # Not reset on the way out: Django logs 4xx/5xx answers after the middleware returns.
        # The next request on this thread or task sets its own id.
        current_request_id.set(request.request_id)
        response = self.get_response(request)
        response["X-Request-Id"] = request.request_id
        return response
